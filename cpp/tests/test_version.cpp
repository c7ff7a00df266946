// fastwire/version.h: the version macros, and the check generated headers make.
#include <fastwire/version.h>
#include <gtest/gtest.h>

#include <string>

static_assert(FASTWIRE_VERSION ==
              FASTWIRE_VERSION_MAJOR * 10000 + FASTWIRE_VERSION_MINOR * 100 + FASTWIRE_VERSION_PATCH);
static_assert(FASTWIRE_GENERATED_COMPATIBLE(FASTWIRE_VERSION_MAJOR, FASTWIRE_VERSION_MINOR, 0));
static_assert(FASTWIRE_GENERATED_COMPATIBLE(FASTWIRE_VERSION_MAJOR, FASTWIRE_VERSION_MINOR, 99));
static_assert(!FASTWIRE_GENERATED_COMPATIBLE(FASTWIRE_VERSION_MAJOR + 1, FASTWIRE_VERSION_MINOR, 0));
static_assert(!FASTWIRE_GENERATED_COMPATIBLE(FASTWIRE_VERSION_MAJOR, FASTWIRE_VERSION_MINOR + 1, 0));

// What a generated header emits, with this runtime's own version: it compiles.
#if !FASTWIRE_GENERATED_COMPATIBLE(0, 1, 0)
#error "test_version.cpp: update the version the emulated generated header names"
#endif

TEST(Version, MacrosAndConstantAgree) {
    EXPECT_EQ(fastwire::version.major, FASTWIRE_VERSION_MAJOR);
    EXPECT_EQ(fastwire::version.minor, FASTWIRE_VERSION_MINOR);
    EXPECT_EQ(fastwire::version.patch, FASTWIRE_VERSION_PATCH);
    EXPECT_EQ(std::string(fastwire::version.string), std::to_string(FASTWIRE_VERSION_MAJOR) + "." +
                                                         std::to_string(FASTWIRE_VERSION_MINOR) + "." +
                                                         std::to_string(FASTWIRE_VERSION_PATCH));
}
