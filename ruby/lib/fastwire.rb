# frozen_string_literal: true

# fastwire: Fast Binary Encoding for Ruby. The runtime under the code that
# `fastwire compile --lang ruby` generates (see README.md).
require_relative "fastwire/errors"
require_relative "fastwire/version"
require_relative "fastwire/values"
require_relative "fastwire/json"
require_relative "fastwire/wire"
require_relative "fastwire/struct_codec"
require_relative "fastwire/model"
require_relative "fastwire/protocol"
require_relative "fastwire/transport"
