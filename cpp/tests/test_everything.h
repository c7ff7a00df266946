// test_everything.h - values of everything.fbe's types with every kind of member filled,
// shared by the tests (include after the generated everything models).
#pragma once

#include <optional>
#include <string>

inline everything::Collections filled_collections() {
    everything::Collections c;
    c.f_array = {1, -2, 3};
    c.f_array_optional = {std::string("a"), std::nullopt};
    c.f_vector = {1, 2, 3};
    c.f_vector_optional = {everything::EnumByte::a2, std::nullopt};
    c.f_vector_struct.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.0, 2.0);
    c.f_list = {"x", "", "yz"};
    c.f_list_optional = {everything::Optionals{}, std::nullopt};
    c.f_set = {-5, 0, 5};
    c.f_set_struct = {proto::Balance("EUR", 1.0)};
    c.f_map = {{1, "one"}, {-1, "minus"}};
    c.f_map_optional = {{"a", 1.5}, {"b", std::nullopt}};
    c.f_map_enum_key[everything::EnumByte::a3] = everything::Optionals{};
    c.f_hash[fastwire::uuid::literal("123e4567-e89b-12d3-a456-426655440000")] = fastwire::bytes{1, 2};
    c.f_hash_optional["p"] = everything::Primitives{};
    c.f_hash_struct_key[proto::Order{}] = everything::Optionals{};
    return c;
}
