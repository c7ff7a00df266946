// foreach.h — FWB_FOR_EACH(m, a, b, c) expands to m(a) m(b) m(c) (up to 64 arguments).
#pragma once

#define FWB_FOR_EACH(m, ...) __VA_OPT__(FWB_FE_EXPAND(FWB_FE_HELPER(m, __VA_ARGS__)))
#define FWB_FE_EXPAND(...) FWB_FE_EXPAND3(FWB_FE_EXPAND3(FWB_FE_EXPAND3(FWB_FE_EXPAND3(__VA_ARGS__))))
#define FWB_FE_EXPAND3(...) FWB_FE_EXPAND2(FWB_FE_EXPAND2(FWB_FE_EXPAND2(FWB_FE_EXPAND2(__VA_ARGS__))))
#define FWB_FE_EXPAND2(...) FWB_FE_EXPAND1(FWB_FE_EXPAND1(FWB_FE_EXPAND1(FWB_FE_EXPAND1(__VA_ARGS__))))
#define FWB_FE_EXPAND1(...) __VA_ARGS__
#define FWB_FE_HELPER(m, a1, ...) m(a1) __VA_OPT__(FWB_FE_AGAIN FWB_FE_PARENS(m, __VA_ARGS__))
#define FWB_FE_PARENS ()
#define FWB_FE_AGAIN() FWB_FE_HELPER
