// Shared by the native tests: a statement must throw lab::InputError whose message contains a
// fragment (the message is the user-facing contract, so the tests check its words).
#pragma once

#include <gtest/gtest.h>

#include <cstring>

#include "tensor.h"

#define EXPECT_INPUT_ERROR(statement, fragment)                              \
  do {                                                                       \
    try {                                                                    \
      statement;                                                             \
      ADD_FAILURE() << "no InputError from " #statement;                     \
    } catch (const lab::InputError& e) {                                     \
      EXPECT_NE(std::strstr(e.what(), fragment), nullptr)                    \
          << "message: \"" << e.what() << "\" lacks \"" << fragment << "\""; \
    }                                                                        \
  } while (0)
