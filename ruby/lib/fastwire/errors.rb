# frozen_string_literal: true

module Fastwire
  # Base class of every error the runtime raises.
  class Error < StandardError; end

  # Bytes or JSON text that do not hold a valid value of the expected type. Malformed
  # input raises this and nothing else. `code` names what was wrong, with the names of
  # the C++ runtime's `errc` (truncated, bad_offset, bad_size, bad_type, bad_value,
  # too_deep, too_large, over_budget, invalid_argument, out_of_range).
  class DecodeError < Error
    CODES = {
      "truncated" => "a size, offset or count reaches past the end",
      "bad_offset" => "an offset is zero where a value is required, or points backwards",
      "bad_size" => "a struct or model size is smaller than its header, or does not match",
      "bad_type" => "unexpected struct type number",
      "bad_value" => "a value outside its domain",
      "too_deep" => "structs nested beyond Limits#max_depth",
      "too_large" => "message or element count exceeds its limit",
      "over_budget" => "blocks shared or reached repeatedly",
      "invalid_argument" => "malformed text",
      "out_of_range" => "value does not fit its type"
    }.freeze

    attr_reader :code, :detail

    def initialize(code, detail = "")
      @code = code
      @detail = detail
      text = CODES.fetch(code, code)
      super(detail.empty? ? "#{code}: #{text}" : "#{code}: #{text} (#{detail})")
    end
  end

  # A value that cannot be serialized: a wrong type, an integer out of its type's range,
  # an array of the wrong length, a decimal beyond 96 bits or 28 places.
  class EncodeError < Error
    attr_reader :code

    def initialize(message, code = "invalid_argument")
      @code = code
      super(message)
    end
  end

  def self.fail!(code, detail = "")
    raise DecodeError.new(code, detail)
  end

  # Bounds applied to untrusted input (the C++ runtime's defaults).
  Limits = Struct.new(:max_depth, :max_message_size, :max_zero_size_elements,
                      keyword_init: true) do
    def initialize(max_depth: 64, max_message_size: 64 * 1024 * 1024,
                   max_zero_size_elements: 1 << 16)
      super
    end
  end
  DEFAULT_LIMITS = Limits.new.freeze
end
