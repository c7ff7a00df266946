# frozen_string_literal: true

require "bigdecimal"
require "securerandom"

module Fastwire
  # A decimal as FBE holds it: a 96-bit unsigned coefficient, a scale 0..28 and a sign,
  # value = ±coefficient / 10**scale. Unlike BigDecimal it keeps its scale (1.50 stays
  # 1.50, -0.00 stays -0.00), which the wire and JSON forms carry. Equality, ordering and
  # hashing are by value (1.5 == 1.50), as BigDecimal's. `to_d` gives the BigDecimal;
  # fields take a BigDecimal, an Integer or a String as well.
  class Decimal
    include Comparable
    MAX = (1 << 96) - 1
    TEXT = /\A([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\z/

    attr_reader :coefficient, :scale

    def initialize(coefficient, scale = 0, negative = false)
      @coefficient = coefficient
      @scale = scale
      @negative = negative
      freeze
    end

    def negative?
      @negative
    end

    ZERO = new(0, 0, false)

    # From a Decimal, BigDecimal, Integer or String (exact text); EncodeError when the
    # value needs more than 96 bits or 28 decimal places.
    def self.from(value)
      case value
      when Decimal then value
      when Integer
        raise EncodeError.new("decimal #{value} needs more than 96 bits", "out_of_range") if value.abs > MAX

        new(value.abs, 0, value.negative?)
      when BigDecimal then from_big(value)
      when String then parse(value) || raise(EncodeError.new("#{value[0, 40].inspect} is not a decimal", "invalid_argument"))
      else raise EncodeError.new("decimal expected, got #{value.class}", "wrong_type")
      end
    end

    def self.from_big(big)
      raise EncodeError.new("decimal #{big} is not finite", "out_of_range") unless big.finite?

      sign, digits, _base, exponent = big.split
      negative = sign.negative?
      return new(0, 0, negative) if big.zero?

      digits = digits.sub(/0+\z/, "")
      scale = digits.length - exponent
      coefficient = digits.to_i
      if scale.negative?
        coefficient *= 10**-scale
        scale = 0
      end
      raise EncodeError.new("decimal #{big.to_s('F')} has more than 28 decimal places", "out_of_range") if scale > 28
      raise EncodeError.new("decimal #{big.to_s('F')} needs more than 96 bits", "out_of_range") if coefficient > MAX

      new(coefficient, scale, negative)
    end

    # The rule every language reads JSON decimals by (docs/wire-format.md#json): the
    # digits as written must fit 96 bits, the scale (digits after the point minus the
    # exponent) 0..28 after a negative one multiplies. Bounded by the text's length.
    # nil when the text is not a decimal; raises DecodeError(out_of_range).
    def self.parse(text)
      m = TEXT.match(text)
      return nil unless m

      whole = m[2]
      frac = m[3] || ""
      return nil if whole.empty? && frac.empty?

      digits = (whole + frac).sub(/\A0+/, "")
      exponent = m[4] ? m[4].to_i : 0
      scale = frac.length - exponent
      Fastwire.fail!("out_of_range", "decimal needs more than 96 bits") if digits.length > 29
      n = digits.empty? ? 0 : digits.to_i
      if scale.negative?
        if n.positive?
          Fastwire.fail!("out_of_range", "decimal needs more than 96 bits") if digits.length - scale > 29

          n *= 10**-scale
        end
        scale = 0
      end
      Fastwire.fail!("out_of_range", "decimal needs more than 96 bits") if n > MAX
      Fastwire.fail!("out_of_range", "decimal has more than 28 decimal places") if scale > 28
      new(n, scale, m[1] == "-")
    end

    def to_d
      BigDecimal(to_s)
    end

    # Exact positional text keeping the scale: "1.50", "-0.00".
    def to_s
      digits = @coefficient.to_s
      if @scale.positive?
        digits = digits.rjust(@scale + 1, "0")
        digits = "#{digits[0, digits.length - @scale]}.#{digits[-@scale, @scale]}"
      end
      @negative ? "-#{digits}" : digits
    end
    alias inspect to_s

    def to_r
      r = Rational(@coefficient, 10**@scale)
      @negative ? -r : r
    end

    def <=>(other)
      other = Decimal.from(other) unless other.is_a?(Decimal)
      to_r <=> other.to_r
    rescue EncodeError
      nil
    end

    def ==(other)
      (other.is_a?(Decimal) || other.is_a?(BigDecimal) || other.is_a?(Integer)) && (self <=> other).zero?
    end

    def eql?(other)
      other.is_a?(Decimal) && to_r == other.to_r
    end

    def hash
      to_r.hash
    end
  end

  # A uuid: its 16 bytes (RFC 4122 order), printed in canonical lower-case text.
  class UUID
    include Comparable
    TEXT = /\A\h{8}-\h{4}-\h{4}-\h{4}-\h{12}\z/

    attr_reader :bytes

    def initialize(bytes)
      raise EncodeError.new("a uuid has 16 bytes", "invalid_argument") unless bytes.bytesize == 16

      @bytes = bytes.b.freeze
      freeze
    end

    # From canonical text ("123e4567-e89b-12d3-a456-426655440000"); nil when it is not.
    def self.parse(text)
      return nil unless text.is_a?(String) && TEXT.match?(text)

      new([text.delete("-")].pack("H32"))
    end

    def self.from(value)
      return value if value.is_a?(UUID)

      parse(value) || raise(EncodeError.new("uuid expected, got #{value.inspect[0, 60]}", "wrong_type"))
    end

    def self.uuid4
      new(SecureRandom.random_bytes(16).tap do |b|
        b.setbyte(6, (b.getbyte(6) & 0x0F) | 0x40)
        b.setbyte(8, (b.getbyte(8) & 0x3F) | 0x80)
      end)
    end

    # A time-based uuid (version 1): 100 ns intervals since 1582-10-15, a random node.
    def self.uuid1
      t = (Process.clock_gettime(Process::CLOCK_REALTIME, :nanosecond) / 100) + 0x01B21DD213814000
      seq = SecureRandom.random_number(0x4000) | 0x8000
      node = SecureRandom.random_bytes(6).bytes
      node[0] |= 0x01
      new([t & 0xFFFFFFFF, (t >> 32) & 0xFFFF, ((t >> 48) & 0x0FFF) | 0x1000, seq].pack("Nnnn") +
          node.pack("C6"))
    end

    NIL = new("\0".b * 16)

    def to_s
      h = @bytes.unpack1("H32")
      "#{h[0, 8]}-#{h[8, 4]}-#{h[12, 4]}-#{h[16, 4]}-#{h[20, 12]}"
    end

    def inspect
      "#<Fastwire::UUID #{self}>"
    end

    def <=>(other)
      other.is_a?(UUID) ? @bytes <=> other.bytes : nil
    end

    def ==(other)
      other.is_a?(UUID) && @bytes == other.bytes
    end
    alias eql? ==

    def hash
      @bytes.hash
    end
  end

  # The current time in nanoseconds since the Unix epoch (the `utc` default).
  def self.utc
    Process.clock_gettime(Process::CLOCK_REALTIME, :nanosecond)
  end
end
