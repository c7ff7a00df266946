# frozen_string_literal: true

require "set"
require "base64"

module Fastwire
  # One message being read or verified: its bytes (exactly the message, binary), the
  # position of the final-format walk, the budget of bytes a versioned walk may still
  # visit and the zero-size elements a final walk may still take.
  class Reader
    attr_accessor :buf, :end_, :pos, :budget, :zcap

    def initialize(buf, budget, zcap)
      @buf = buf
      @end_ = buf.bytesize
      @pos = 0
      @budget = budget
      @zcap = zcap
    end
  end

  # Codecs: one object per schema type says how its values sit in the versioned format
  # (a slot in a struct body, blocks after it), the final format, JSON and the printout.
  # Generated structs compose them; StructCodec walks a struct's fields with one
  # precompiled pack format for the whole body (versioned) and one per run of
  # fixed-size fields (final).
  #
  # Versioned (positions absolute in the message, `base` the position offsets are
  # relative to, `d` the struct levels that may still be entered):
  #   vwrite(vals, buf, base, v)   appends v's blocks to buf, pushes its slot's values
  #   vread(r, raw, i, slot, base, d)   the value from the unpacked slot values raw[i..]
  #   vcheck(r, raw, i, slot, base, d)  verifies them
  #   vget_slot / vcheck_slot(r, slot, base, d)   the same from the bytes at `slot`
  # Final: fput(buf, v); fget(r, d) and fcheck(r, d) at r.pos, moving it on.
  # JSON: dump_json(v) -> text; load_json(parsed) -> value; key_json / unkey_json.
  class Codec
    attr_reader :name, :slot, :fmt, :nvals, :fmin, :fsize

    def scalar?
      false
    end

    def vget_slot(r, pos, base, d)
      raw = r.buf.unpack(@fmt, offset: pos)
      vread(r, raw, 0, pos, base, d)
    end

    def vcheck_slot(r, pos, base, d)
      raw = r.buf.unpack(@fmt, offset: pos)
      vcheck(r, raw, 0, pos, base, d)
    end

    def key_json(v)
      dump_json(v)
    end

    def unkey_json(text)
      load_json(JSONText.parse(text))
    rescue DecodeError
      Fastwire.fail!("invalid_argument", "map key #{text[0, 40].inspect}")
    end

    def sort(values)
      values.sort
    end

    def inspect
      "#<codec #{@name}>"
    end
  end

  # A value held in the slot itself.
  class Scalar < Codec
    def initialize(name, fmt, size)
      super()
      @name = name
      @fmt = fmt
      @nvals = 1
      @slot = @fmin = @fsize = size
    end

    def scalar?
      true
    end

    def to_wire(v)
      v
    end

    def of_wire(raw)
      raw
    end

    def vwrite(vals, _buf, _base, v)
      vals << to_wire(v)
    end

    def vread(_r, raw, i, _slot, _base, _d)
      of_wire(raw[i])
    end

    def vcheck(_r, _raw, _i, _slot, _base, _d); end

    def fput(buf, v)
      [to_wire(v)].pack(@fmt, buffer: buf)
    end

    def fget(r, _d)
      p = r.pos
      Fastwire.fail!("truncated") if p + @fsize > r.end_
      r.pos = p + @fsize
      of_wire(r.buf.unpack1(@fmt, offset: p))
    end

    def fcheck(r, d)
      fget(r, d)
      nil
    end

    # n values as consecutive slots / read back.
    def pack_many(values, buf)
      values.map { |v| to_wire(v) }.pack("#{@fmt}#{values.size}", buffer: buf)
    end

    def unpack_many(buf, pos, n)
      buf.unpack("#{@fmt}#{n}", offset: pos).map! { |x| of_wire(x) }
    end

    def check_many(buf, pos, n); end

    def text(v)
      v.to_s
    end
  end

  # bool: one byte, any nonzero byte reads as true, written as 1.
  class BoolCodec < Scalar
    def default
      false
    end

    def to_wire(v)
      case v
      when true then 1
      when false then 0
      else raise EncodeError.new("bool expected, got #{v.inspect[0, 40]}", "wrong_type")
      end
    end

    def of_wire(raw)
      raw != 0
    end

    def unpack_many(buf, pos, n)
      buf.unpack("C#{n}", offset: pos).map! { |x| x != 0 }
    end

    def dump_json(v)
      v ? "true" : "false"
    end

    def load_json(j)
      return j if j == true || j == false

      Fastwire.fail!("bad_value", "bool expected")
    end

    def unkey_json(text)
      return true if text == "true"
      return false if text == "false"

      Fastwire.fail!("invalid_argument", "map key #{text[0, 40].inspect} is not a bool")
    end

    def key_json(v)
      v ? "true" : "false"
    end

    def sort(values)
      values.sort_by { |v| v ? 1 : 0 }
    end

    def text(v)
      v ? "true" : "false"
    end
  end

  # Integers, char and wchar (code units), timestamp (ns), and the base of enums/flags.
  class IntCodec < Scalar
    attr_reader :lo, :hi

    def initialize(name, fmt, size, lo, hi)
      super(name, fmt, size)
      @lo = lo
      @hi = hi
    end

    def default
      0
    end

    def to_wire(v)
      return v if v.is_a?(Integer) && v >= @lo && v <= @hi

      raise EncodeError.new("#{v.inspect[0, 40]} does not fit #{@name}", v.is_a?(Integer) ? "out_of_range" : "wrong_type")
    end

    def unpack_many(buf, pos, n)
      buf.unpack("#{@fmt}#{n}", offset: pos)
    end

    def dump_json(v)
      v.to_s
    end

    def load_json(j)
      if j.is_a?(JSONText::Number) && j.integer
        Fastwire.fail!("out_of_range", "does not fit #{@name}") if j.text.delete_prefix("-").length > 20
        j = j.text.to_i
      end
      if j.is_a?(Integer)
        Fastwire.fail!("out_of_range", "#{j} does not fit #{@name}") unless j >= @lo && j <= @hi
        return j
      end

      Fastwire.fail!("bad_value", "#{@name} expected")
    end

    def unkey_json(text)
      m = /\A(-?)0*(\d+)\z/.match(text) || (text.match?(/\A-?0+\z/) ? [nil, "", "0"] : nil)
      Fastwire.fail!("invalid_argument", "map key #{text[0, 40].inspect} is not an integer") unless m
      Fastwire.fail!("out_of_range", "map key does not fit #{@name}") if m[2].length > 20

      n = m[2].to_i
      load_json(m[1] == "-" ? -n : n)
    end

    def text(v)
      v.to_s
    end
  end

  # char: a one-byte code unit, printed as a character.
  class CharCodec < IntCodec
    def text(v)
      "'#{v.chr(Encoding::UTF_8)}'"
    end
  end

  # wchar: a 32-bit code unit.
  class WCharCodec < IntCodec
    def text(v)
      v >= 0x20 && v < 0x7F ? "'#{v.chr}'" : format("'U+%X'", v)
    end
  end

  # float and double.
  class FloatCodec < Scalar
    FLOAT_KEY = /\A-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\z/

    def initialize(name, fmt, size)
      super
      @single = size == 4
    end

    def default
      0.0
    end

    def to_wire(v)
      x = if v.is_a?(Float) then v
          elsif v.is_a?(Integer) || v.is_a?(Rational) || v.is_a?(BigDecimal) then v.to_f
          else raise EncodeError.new("#{v.inspect[0, 40]} is not a number (#{@name})", "wrong_type")
          end
      @single ? FloatCodec.float_bits(x) : x
    end

    # float slots are packed as their bits ("L<"): Ruby's "e" directive writes every NaN
    # as the canonical one, and a NaN's payload must survive a round trip.
    def self.float_bits(x)
      return [x].pack("e").unpack1("L<") unless x.nan?

      bits = [x].pack("E").unpack1("Q<")
      ((bits >> 63) << 31) | 0x7F800000 | ((bits >> 29) & 0x7FFFFF) | (((bits >> 29) & 0x7FFFFF).zero? ? 1 : 0)
    end

    def of_wire(raw)
      @single ? [raw].pack("L<").unpack1("e") : raw
    end

    def unpack_many(buf, pos, n)
      buf.unpack("#{@single ? 'e' : 'E'}#{n}", offset: pos)
    end

    def as_single(x)
      [x].pack("e").unpack1("e")
    end

    def dump_json(v)
      JSONText.double(@single ? as_single(v.to_f) : v.to_f)
    end

    def load_json(j)
      x = case j
          when Integer then j.to_f
          when JSONText::Number then JSONText.to_double(j.text)
          when "NaN" then Float::NAN
          when "Infinity" then Float::INFINITY
          when "-Infinity" then -Float::INFINITY
          else Fastwire.fail!("bad_value", "#{@name} expected")
          end
      if @single && x.finite?
        # The nearest float: from halfway between the largest float and 2**128 on it is
        # infinity (out of range); below, the largest float (pack gives infinity there).
        Fastwire.fail!("out_of_range", "does not fit float") if x.abs >= FLOAT_HALFWAY
        y = as_single(x)
        y = x.positive? ? FLOAT_MAX : -FLOAT_MAX if y.infinite?
        x = y
      end
      x
    end

    FLOAT_MAX = 3.4028234663852886e38
    FLOAT_HALFWAY = 3.4028235677973366e38 # 2**128 - 2**103

    def key_json(v)
      t = dump_json(v)
      t.start_with?('"') ? t[1..-2] : t
    end

    def unkey_json(text)
      return load_json(text) if %w[NaN Infinity -Infinity].include?(text)

      Fastwire.fail!("invalid_argument", "map key #{text[0, 40].inspect} is not a number") unless FLOAT_KEY.match?(text)
      load_json(JSONText::Number.new(text, false))
    end

    def sort(values)
      values.sort { |a, b| (a <=> b) || (a.nan? ? (b.nan? ? 0 : 1) : -1) }
    end

    def text(v)
      format("%g", v)
    end
  end

  # uuid: 16 bytes in the canonical text's order.
  class UUIDCodec < Scalar
    def default
      UUID::NIL
    end

    def to_wire(v)
      return v.bytes if v.is_a?(UUID)

      UUID.from(v).bytes
    end

    def of_wire(raw)
      UUID.new(raw)
    end

    def pack_many(values, buf)
      values.each { |v| buf << to_wire(v) }
    end

    def unpack_many(buf, pos, n)
      Array.new(n) { |i| UUID.new(buf.byteslice(pos + (16 * i), 16)) }
    end

    def dump_json(v)
      %("#{v}")
    end

    def load_json(j)
      Fastwire.fail!("bad_value", "uuid expected") unless j.is_a?(String)
      UUID.parse(j) || Fastwire.fail!("invalid_argument", "#{j[0, 40].inspect} is not a uuid")
    end

    def key_json(v)
      v.to_s
    end

    def unkey_json(text)
      load_json(text)
    end

    def text(v)
      %("#{v}")
    end
  end

  # decimal: 96-bit integer, scale 0..28, sign.
  class DecimalCodec < Scalar
    def default
      Decimal::ZERO
    end

    def self.bytes(v)
      v = Decimal.from(v) unless v.is_a?(Decimal)
      c = v.coefficient
      [c & 0xFFFFFFFFFFFFFFFF, c >> 64, (v.scale << 16) | (v.negative? ? 0x80000000 : 0)].pack("Q<VV")
    end

    def to_wire(v)
      DecimalCodec.bytes(v)
    end

    def self.of(raw)
      low, high, flags = raw.unpack("Q<VV")
      scale = (flags >> 16) & 0xFF
      Fastwire.fail!("bad_value", "decimal scale #{scale}") if scale > 28
      Decimal.new((high << 64) | low, scale, flags >= 0x80000000)
    end

    def of_wire(raw)
      DecimalCodec.of(raw)
    end

    def vcheck(_r, raw, i, _slot, _base, _d)
      Fastwire.fail!("bad_value", "decimal scale above 28") if raw[i].getbyte(14) > 28
    end

    def fcheck(r, _d)
      p = r.pos
      Fastwire.fail!("truncated") if p + 16 > r.end_
      Fastwire.fail!("bad_value", "decimal scale above 28") if r.buf.getbyte(p + 14) > 28
      r.pos = p + 16
      nil
    end

    def pack_many(values, buf)
      values.each { |v| buf << to_wire(v) }
    end

    def unpack_many(buf, pos, n)
      Array.new(n) { |i| DecimalCodec.of(buf.byteslice(pos + (16 * i), 16)) }
    end

    def check_many(buf, pos, n)
      n.times { |i| Fastwire.fail!("bad_value", "decimal scale above 28") if buf.getbyte(pos + (16 * i) + 14) > 28 }
    end

    def dump_json(v)
      %("#{v}")
    end

    def load_json(j)
      text = case j
             when String then j
             when Integer then j.to_s
             when JSONText::Number then j.text
             else Fastwire.fail!("bad_value", "decimal expected")
             end
      Decimal.parse(text) || Fastwire.fail!("invalid_argument", "#{text[0, 40].inspect} is not a decimal")
    end

    def key_json(v)
      v.to_s
    end

    def unkey_json(text)
      load_json(text)
    end

    def text(v)
      v.to_s
    end
  end

  # An enum or flags type over its underlying integer. Values are Integers: those
  # without a name are kept as they are. `names` maps value => schema name (the first
  # name of a value for enums; every named value, in declaration order, for flags).
  class EnumCodec < IntCodec
    def initialize(name, base, names, flags)
      super(name, base.fmt, base.slot, base.lo, base.hi)
      @names = names
      @first = {}
      names.each { |v, n| @first[v] = n unless @first.key?(v) }
      @flags = flags
    end

    def text(v)
      return @first.fetch(v, "<unknown>") unless @flags

      @names.select { |value, _| value != 0 && (v & value) == value }.map { |_, n| n }.join("|")
    end
  end

  # string and bytes: an offset to [u32 length][bytes]; final: [u32 length][bytes].
  class TextCodec < Codec
    # Groups of four from the standard alphabet, the last one padded with "=" or "==".
    BASE64 = %r{\A(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\z}

    def initialize(name, binary)
      super()
      @name = name
      @binary = binary
      @fmt = "V"
      @nvals = 1
      @slot = @fmin = 4
      @fsize = nil
    end

    def default
      @binary ? "".b : +""
    end

    def data(v)
      raise EncodeError.new("#{@name} expected, got #{v.class}", "wrong_type") unless v.is_a?(String)

      v
    end

    def vwrite(vals, buf, base, v)
      v = data(v)
      vals << (buf.bytesize - base)
      [v.bytesize].pack("V", buffer: buf)
      buf << v.b
    end

    def vread(r, raw, i, slot, base, _d)
      off = raw[i]
      return default if off.zero?

      pos = Fastwire.vblock(r, base + off, slot + 4)
      s = r.buf.byteslice(pos + 4, r.buf.unpack1("V", offset: pos))
      @binary ? s : s.force_encoding(Encoding::UTF_8)
    end

    def vcheck(r, raw, i, slot, base, _d)
      off = raw[i]
      Fastwire.vblock(r, base + off, slot + 4) unless off.zero?
    end

    def fput(buf, v)
      v = data(v)
      [v.bytesize].pack("V", buffer: buf)
      buf << v.b
    end

    def fget(r, _d)
      p = r.pos
      Fastwire.fail!("truncated") if p + 4 > r.end_
      n = r.buf.unpack1("V", offset: p)
      Fastwire.fail!("truncated") if n > r.end_ - p - 4
      r.pos = p + 4 + n
      s = r.buf.byteslice(p + 4, n)
      @binary ? s : s.force_encoding(Encoding::UTF_8)
    end

    def fcheck(r, _d)
      p = r.pos
      Fastwire.fail!("truncated") if p + 4 > r.end_
      n = r.buf.unpack1("V", offset: p)
      Fastwire.fail!("truncated") if n > r.end_ - p - 4
      r.pos = p + 4 + n
      nil
    end

    def dump_json(v)
      @binary ? %("#{Base64.strict_encode64(v)}") : JSONText.string(v)
    end

    def load_json(j)
      Fastwire.fail!("bad_value", "#{@name} expected") unless j.is_a?(String)
      if @binary
        # Standard Base64 with its padding (docs/wire-format.md#json); the unused low bits
        # of the last character are ignored, as in every language ("QR==" is "QQ==").
        Fastwire.fail!("invalid_argument", "malformed base64") unless BASE64.match?(j)
        return j.unpack1("m")
      end
      j # valid UTF-8: the JSON reader rejects lone surrogates
    end

    def key_json(v)
      v
    end

    def unkey_json(text)
      load_json(text)
    end

    def text(v)
      @binary ? "bytes[#{v.bytesize}]" : %("#{v}")
    end
  end

  # Finds a [u32 length][bytes] block at pos; returns pos. Charges the budget.
  def self.vblock(r, pos, slot_end)
    Fastwire.fail!("truncated") if pos > r.end_
    Fastwire.fail!("bad_offset") if pos < slot_end
    Fastwire.fail!("truncated") if pos + 4 > r.end_
    n = r.buf.unpack1("V", offset: pos)
    Fastwire.fail!("truncated") if n > r.end_ - pos - 4
    budget = r.budget - 4 - n
    Fastwire.fail!("over_budget") if budget.negative?
    r.budget = budget
    pos
  end

  # Finds a [u32 count][count x elem] block; returns [first element, count].
  def self.vcount(r, base, off, slot_end, elem)
    pos = base + off
    Fastwire.fail!("truncated") if pos > r.end_
    Fastwire.fail!("bad_offset") if pos < slot_end
    Fastwire.fail!("truncated") if pos + 4 > r.end_
    n = r.buf.unpack1("V", offset: pos)
    Fastwire.fail!("truncated") if n > (r.end_ - pos - 4) / elem
    budget = r.budget - 4 - (n * elem)
    Fastwire.fail!("over_budget") if budget.negative?
    r.budget = budget
    [pos + 4, n]
  end

  # A final-format count at r.pos, checked against the bytes left (or, for elements of
  # zero size, charged to the message's allowance); moves r.pos past it.
  def self.fcount(r, elem_min)
    p = r.pos
    Fastwire.fail!("truncated") if p + 4 > r.end_
    n = r.buf.unpack1("V", offset: p)
    if elem_min.positive?
      Fastwire.fail!("truncated") if n > (r.end_ - p - 4) / elem_min
    else
      Fastwire.fail!("over_budget", "#{n} elements of zero size") if n > r.zcap
      r.zcap -= n
    end
    r.pos = p + 4
    n
  end

  # T?: versioned [u8 flag][u32 offset] -> a block of slot(T) bytes holding the value
  # (the base moves to the block); null is 0, 0. Final: [u8 flag], the value when set.
  class OptionalCodec < Codec
    def initialize(inner)
      super()
      @inner = inner
      @name = "#{inner.name}?"
      @fmt = "CV"
      @nvals = 2
      @slot = 5
      @fmin = 1
      @fsize = nil
      @zero = ("\0" * inner.slot).b.freeze
    end

    def default
      nil
    end

    def vwrite(vals, buf, base, v)
      if v.nil?
        vals << 0 << 0
        return
      end
      pos = buf.bytesize
      buf << @zero
      inner_vals = []
      @inner.vwrite(inner_vals, buf, pos, v)
      buf[pos, @inner.slot] = inner_vals.pack(@inner.fmt)
      vals << 1 << (pos - base)
    end

    def find(r, base, off, slot_end)
      Fastwire.fail!("bad_offset", "a set optional with offset 0") if off.zero?
      need = @inner.slot
      pos = base + off
      Fastwire.fail!("truncated") if pos > r.end_
      Fastwire.fail!("bad_offset") if pos < slot_end
      Fastwire.fail!("truncated") if pos + need > r.end_
      budget = r.budget - need
      Fastwire.fail!("over_budget") if budget.negative?
      r.budget = budget
      pos
    end

    def vread(r, raw, i, slot, base, d)
      return nil if raw[i].zero? # the offset of a null optional is ignored

      pos = find(r, base, raw[i + 1], slot + 5)
      @inner.vget_slot(r, pos, pos, d)
    end

    def vcheck(r, raw, i, slot, base, d)
      return if raw[i].zero?

      pos = find(r, base, raw[i + 1], slot + 5)
      @inner.vcheck_slot(r, pos, pos, d)
    end

    def fput(buf, v)
      if v.nil?
        buf << "\0"
      else
        buf << "\1"
        @inner.fput(buf, v)
      end
    end

    def fget(r, d)
      p = r.pos
      Fastwire.fail!("truncated") if p >= r.end_
      r.pos = p + 1
      r.buf.getbyte(p).zero? ? nil : @inner.fget(r, d)
    end

    def fcheck(r, d)
      p = r.pos
      Fastwire.fail!("truncated") if p >= r.end_
      r.pos = p + 1
      @inner.fcheck(r, d) unless r.buf.getbyte(p).zero?
      nil
    end

    def dump_json(v)
      v.nil? ? "null" : @inner.dump_json(v)
    end

    def load_json(j)
      j.nil? ? nil : @inner.load_json(j)
    end

    def text(v)
      v.nil? ? "null" : @inner.text(v)
    end
  end

  # T[N]: N element slots inline (versioned) or N elements inline (final).
  class ArrayCodec < Codec
    def initialize(elem, n)
      super()
      @elem = elem
      @n = n
      @name = "#{elem.name}[#{n}]"
      @fmt = elem.fmt * n
      @nvals = elem.nvals * n
      @slot = elem.slot * n
      @fmin = elem.fmin * n
      @fsize = elem.fsize && (elem.fsize * n)
    end

    def default
      Array.new(@n) { @elem.default }
    end

    def items(values)
      raise EncodeError.new("#{@name} expected, got #{values.class}", "wrong_type") unless values.is_a?(Array)
      raise EncodeError.new("#{@name} needs exactly #{@n} elements, got #{values.size}", "wrong_length") unless values.size == @n

      values
    end

    def vwrite(vals, buf, base, values)
      items(values).each { |x| @elem.vwrite(vals, buf, base, x) }
    end

    def vread(r, raw, i, slot, base, d)
      e = @elem
      k = e.nvals
      s = e.slot
      Array.new(@n) { |j| e.vread(r, raw, i + (j * k), slot + (j * s), base, d) }
    end

    def vcheck(r, raw, i, slot, base, d)
      e = @elem
      k = e.nvals
      s = e.slot
      @n.times { |j| e.vcheck(r, raw, i + (j * k), slot + (j * s), base, d) }
    end

    def fput(buf, values)
      items(values)
      if @elem.scalar?
        @elem.pack_many(values, buf)
      else
        values.each { |x| @elem.fput(buf, x) }
      end
    end

    def fget(r, d)
      e = @elem
      if e.scalar?
        p = r.pos
        Fastwire.fail!("truncated") if p + @fsize > r.end_
        r.pos = p + @fsize
        return e.unpack_many(r.buf, p, @n)
      end
      Array.new(@n) { e.fget(r, d) }
    end

    def fcheck(r, d)
      e = @elem
      if e.scalar?
        p = r.pos
        Fastwire.fail!("truncated") if p + @fsize > r.end_
        e.check_many(r.buf, p, @n)
        r.pos = p + @fsize
        return
      end
      @n.times { e.fcheck(r, d) }
    end

    def dump_json(values)
      "[#{values.map { |x| @elem.dump_json(x) }.join(',')}]"
    end

    def load_json(j)
      Fastwire.fail!("bad_value", "#{@name} expects an array") unless j.is_a?(Array)
      Fastwire.fail!("bad_value", "#{@name} expects #{@n} elements") unless j.size == @n

      Fastwire.charge_zero_size(j.size) if @elem.fmin.zero?
      j.map { |x| @elem.load_json(x) }
    end

    def text(values)
      "[#{values.size}][#{values.map { |x| @elem.text(x) }.join(',')}]"
    end
  end

  # vector T[], list T() and set T!: an offset to [u32 count][count x slot(T)]
  # (versioned) or [u32 count][elements] (final). Ruby: Array, Array, Set (written in
  # ascending order).
  class SequenceCodec < Codec
    BRACKETS = { vector: %w[[ ]], list: %w[< >], set: %w[{ }] }.freeze

    def initialize(elem, kind)
      super()
      @elem = elem
      @set = kind == :set
      @name = elem.name + { vector: "[]", list: "()", set: "!" }[kind]
      @open, @close = BRACKETS[kind]
      @fmt = "V"
      @nvals = 1
      @slot = @fmin = 4
      @fsize = nil
    end

    def default
      @set ? Set.new : []
    end

    def items(values)
      return @elem.sort(values.to_a) if @set && (values.is_a?(Set) || values.is_a?(Array))
      return values if values.is_a?(Array)

      raise EncodeError.new("#{@name} expected, got #{values.class}", "wrong_type")
    end

    def result(list)
      @set ? list.to_set : list
    end

    def vwrite(vals, buf, base, values)
      values = items(values)
      e = @elem
      n = values.size
      pos = buf.bytesize
      vals << (pos - base)
      [n].pack("V", buffer: buf)
      if e.scalar?
        e.pack_many(values, buf)
      else
        at = buf.bytesize
        buf << ("\0" * (n * e.slot))
        slots = []
        values.each { |x| e.vwrite(slots, buf, base, x) }
        buf[at, n * e.slot] = slots.pack(e.fmt * n) if n.positive?
      end
    end

    def vread(r, raw, i, slot, base, d)
      off = raw[i]
      return default if off.zero?

      e = @elem
      pos, n = Fastwire.vcount(r, base, off, slot + 4, e.slot)
      return result(e.unpack_many(r.buf, pos, n)) if e.scalar?
      return result([]) if n.zero?

      elems = r.buf.unpack(e.fmt * n, offset: pos)
      k = e.nvals
      s = e.slot
      result(Array.new(n) { |j| e.vread(r, elems, j * k, pos + (j * s), base, d) })
    end

    def vcheck(r, raw, i, slot, base, d)
      off = raw[i]
      return if off.zero?

      e = @elem
      pos, n = Fastwire.vcount(r, base, off, slot + 4, e.slot)
      return e.check_many(r.buf, pos, n) if e.scalar?
      return if n.zero?

      elems = r.buf.unpack(e.fmt * n, offset: pos)
      k = e.nvals
      s = e.slot
      n.times { |j| e.vcheck(r, elems, j * k, pos + (j * s), base, d) }
    end

    def fput(buf, values)
      values = items(values)
      [values.size].pack("V", buffer: buf)
      if @elem.scalar?
        @elem.pack_many(values, buf)
      else
        values.each { |x| @elem.fput(buf, x) }
      end
    end

    def fget(r, d)
      e = @elem
      n = Fastwire.fcount(r, e.fmin)
      if e.scalar?
        p = r.pos
        r.pos = p + (n * e.fmin)
        return result(e.unpack_many(r.buf, p, n))
      end
      result(Array.new(n) { e.fget(r, d) })
    end

    def fcheck(r, d)
      e = @elem
      n = Fastwire.fcount(r, e.fmin)
      if e.scalar?
        e.check_many(r.buf, r.pos, n)
        r.pos += n * e.fmin
        return
      end
      n.times { e.fcheck(r, d) }
    end

    def dump_json(values)
      "[#{items(values).map { |x| @elem.dump_json(x) }.join(',')}]"
    end

    def load_json(j)
      Fastwire.fail!("bad_value", "#{@name} expects an array") unless j.is_a?(Array)
      Fastwire.charge_zero_size(j.size) if @elem.fmin.zero?
      result(j.map { |x| @elem.load_json(x) })
    end

    def text(values)
      list = items(values)
      "[#{list.size}]#{@open}#{list.map { |x| @elem.text(x) }.join(',')}#{@close}"
    end
  end

  # map V<K> and hash V{K}: an offset to [u32 count][count x (slot(K) slot(V))]
  # (versioned) or [u32 count][key value ...] (final). Ruby: Hash. A map is written in
  # ascending key order, a hash in the Hash's order. Reading keeps the first of equal
  # keys. JSON: an object keyed by the key's text; with a struct key an array of
  # [key, value] pairs.
  class MapCodec < Codec
    def initialize(key, value, kind)
      super()
      @key = key
      @value = value
      @sorted = kind == :map
      @pairs = key.is_a?(StructCodec)
      @name = @sorted ? "#{value.name}<#{key.name}>" : "#{value.name}{#{key.name}}"
      @open, @close = @sorted ? %w[< >] : %w[[ ]]
      @pair = key.slot + value.slot
      @pair_fmt = key.fmt + value.fmt
      @fmt = "V"
      @nvals = 1
      @slot = @fmin = 4
      @fsize = nil
    end

    def default
      {}
    end

    def items(h)
      raise EncodeError.new("#{@name} expected, got #{h.class}", "wrong_type") unless h.is_a?(Hash)
      return h.to_a unless @sorted

      keys = @key.sort(h.keys)
      keys.map { |k| [k, h[k]] }
    end

    def vwrite(vals, buf, base, h)
      list = items(h)
      n = list.size
      vals << (buf.bytesize - base)
      [n].pack("V", buffer: buf)
      return if n.zero?

      at = buf.bytesize
      buf << ("\0" * (n * @pair))
      slots = []
      list.each do |k, v|
        @key.vwrite(slots, buf, base, k)
        @value.vwrite(slots, buf, base, v)
      end
      buf[at, n * @pair] = slots.pack(@pair_fmt * n)
    end

    def vread(r, raw, i, slot, base, d)
      off = raw[i]
      out = {}
      return out if off.zero?

      pos, n = Fastwire.vcount(r, base, off, slot + 4, @pair)
      return out if n.zero?

      elems = r.buf.unpack(@pair_fmt * n, offset: pos)
      kn = @key.nvals
      step = kn + @value.nvals
      ks = @key.slot
      n.times do |j|
        at = pos + (j * @pair)
        k = @key.vread(r, elems, j * step, at, base, d)
        v = @value.vread(r, elems, (j * step) + kn, at + ks, base, d)
        out[k] = v unless out.key?(k)
      end
      out
    end

    def vcheck(r, raw, i, slot, base, d)
      off = raw[i]
      return if off.zero?

      pos, n = Fastwire.vcount(r, base, off, slot + 4, @pair)
      return if n.zero?

      elems = r.buf.unpack(@pair_fmt * n, offset: pos)
      kn = @key.nvals
      step = kn + @value.nvals
      ks = @key.slot
      n.times do |j|
        at = pos + (j * @pair)
        @key.vcheck(r, elems, j * step, at, base, d)
        @value.vcheck(r, elems, (j * step) + kn, at + ks, base, d)
      end
    end

    def fput(buf, h)
      list = items(h)
      [list.size].pack("V", buffer: buf)
      list.each do |k, v|
        @key.fput(buf, k)
        @value.fput(buf, v)
      end
    end

    def fget(r, d)
      n = Fastwire.fcount(r, @key.fmin + @value.fmin)
      out = {}
      n.times do
        k = @key.fget(r, d)
        v = @value.fget(r, d)
        out[k] = v unless out.key?(k)
      end
      out
    end

    def fcheck(r, d)
      n = Fastwire.fcount(r, @key.fmin + @value.fmin)
      n.times do
        @key.fcheck(r, d)
        @value.fcheck(r, d)
      end
    end

    def dump_json(h)
      list = items(h)
      if @pairs
        "[#{list.map { |k, v| "[#{@key.dump_json(k)},#{@value.dump_json(v)}]" }.join(',')}]"
      else
        "{#{list.map { |k, v| "#{JSONText.string(@key.key_json(k))}:#{@value.dump_json(v)}" }.join(',')}}"
      end
    end

    def load_json(j)
      out = {}
      if @pairs
        Fastwire.fail!("bad_value", "#{@name} expects an array of [key, value] pairs") unless j.is_a?(Array)
        Fastwire.charge_zero_size(j.size) if (@key.fmin + @value.fmin).zero?
        j.each do |pair|
          Fastwire.fail!("bad_value", "#{@name} expects [key, value] pairs") unless pair.is_a?(Array) && pair.size == 2
          k = @key.load_json(pair[0])
          v = @value.load_json(pair[1])
          out[k] = v unless out.key?(k)
        end
        return out
      end
      Fastwire.fail!("bad_value", "#{@name} expects an object") unless j.is_a?(Hash)
      # The same key text twice: the first value stays, every one must be valid.
      first = {}
      JSONText.repeated(j)&.each do |a, b|
        v = @value.load_json(b)
        first[a] = v unless first.key?(a)
      end
      j.each do |a, b|
        k = @key.unkey_json(a)
        v = @value.load_json(b)
        v = first[a] if first.key?(a)
        out[k] = v unless out.key?(k)
      end
      out
    end

    def text(h)
      list = items(h)
      "[#{list.size}]#{@open}#{list.map { |k, v| "{#{@key.text(k)}->#{@value.text(v)}}" }.join(',')}#{@close}"
    end
  end

  # Zero-size elements a JSON read may still take (per thread, set by from_json).
  def self.charge_zero_size(n)
    left = (Thread.current[:fastwire_zero_left] || DEFAULT_LIMITS.max_zero_size_elements) - n
    Fastwire.fail!("over_budget", "elements of zero size beyond max_zero_size_elements") if left.negative?
    Thread.current[:fastwire_zero_left] = left
  end

  BOOL = BoolCodec.new("bool", "C", 1)
  BYTE = IntCodec.new("byte", "C", 1, 0, 0xFF)
  CHAR = CharCodec.new("char", "C", 1, 0, 0xFF)
  WCHAR = WCharCodec.new("wchar", "V", 4, 0, 0xFFFFFFFF)
  INT8 = IntCodec.new("int8", "c", 1, -0x80, 0x7F)
  UINT8 = IntCodec.new("uint8", "C", 1, 0, 0xFF)
  INT16 = IntCodec.new("int16", "s<", 2, -0x8000, 0x7FFF)
  UINT16 = IntCodec.new("uint16", "S<", 2, 0, 0xFFFF)
  INT32 = IntCodec.new("int32", "l<", 4, -0x80000000, 0x7FFFFFFF)
  UINT32 = IntCodec.new("uint32", "L<", 4, 0, 0xFFFFFFFF)
  INT64 = IntCodec.new("int64", "q<", 8, -0x8000000000000000, 0x7FFFFFFFFFFFFFFF)
  UINT64 = IntCodec.new("uint64", "Q<", 8, 0, 0xFFFFFFFFFFFFFFFF)
  TIMESTAMP = IntCodec.new("timestamp", "Q<", 8, 0, 0xFFFFFFFFFFFFFFFF)
  FLOAT = FloatCodec.new("float", "L<", 4)
  DOUBLE = FloatCodec.new("double", "E", 8)
  DECIMAL = DecimalCodec.new("decimal", "a16", 16)
  UUID_ = UUIDCodec.new("uuid", "a16", 16)
  STRING = TextCodec.new("string", false)
  BYTES = TextCodec.new("bytes", true)

  PRIMITIVES = {
    "bool" => BOOL, "byte" => BYTE, "char" => CHAR, "wchar" => WCHAR, "int8" => INT8,
    "uint8" => UINT8, "int16" => INT16, "uint16" => UINT16, "int32" => INT32,
    "uint32" => UINT32, "int64" => INT64, "uint64" => UINT64, "float" => FLOAT,
    "double" => DOUBLE, "decimal" => DECIMAL, "timestamp" => TIMESTAMP, "uuid" => UUID_,
    "string" => STRING, "bytes" => BYTES
  }.freeze

  def self.enum(name, base, names)
    EnumCodec.new(name, PRIMITIVES.fetch(base), names, false)
  end

  def self.flags(name, base, names)
    EnumCodec.new(name, PRIMITIVES.fetch(base), names, true)
  end

  def self.optional(inner)
    OptionalCodec.new(inner)
  end

  def self.array(elem, n)
    ArrayCodec.new(elem, n)
  end

  def self.vector(elem)
    SequenceCodec.new(elem, :vector)
  end

  def self.list(elem)
    SequenceCodec.new(elem, :list)
  end

  def self.set(elem)
    SequenceCodec.new(elem, :set)
  end

  def self.map(key, value)
    MapCodec.new(key, value, :map)
  end

  def self.hash_map(key, value)
    MapCodec.new(key, value, :hash)
  end
end

module Fastwire
  # ---- helpers of the generated fast paths ----------------------------------------------

  # The pack formats of a vector of n flat structs ([count][n offsets], then each struct
  # as `one`), by n; the first 64 are kept.
  def self.vector_formats(one)
    Hash.new do |h, n|
      f = "V#{n + 1}#{one * n}".freeze
      h[n] = f if n <= 64
      f
    end
  end

  # A versioned string (binary: bytes) at base + off, its slot ending at slot_end.
  def self.vget_str(r, base, off, slot_end)
    return +"" if off.zero?

    pos = base + off
    buf = r.buf
    end_ = r.end_
    if pos >= slot_end && pos <= end_ - 4 && (n = buf.unpack1("V", offset: pos)) <= end_ - pos - 4 &&
       (budget = r.budget - 4 - n) >= 0
      r.budget = budget
      return buf.byteslice(pos + 4, n).force_encoding(Encoding::UTF_8)
    end
    vblock(r, pos, slot_end) # raises the precise error
    raise DecodeError, "truncated"
  end

  def self.vget_bytes(r, base, off, slot_end)
    return "".b if off.zero?

    pos = vblock(r, base + off, slot_end)
    r.buf.byteslice(pos + 4, r.buf.unpack1("V", offset: pos))
  end

  def self.vcheck_str(r, base, off, slot_end)
    vblock(r, base + off, slot_end) unless off.zero?
  end

  # Appends [u32 length][bytes]; returns its offset from base.
  def self.vput_str(buf, base, s)
    raise EncodeError.new("string expected, got #{s.class}", "wrong_type") unless s.is_a?(String)

    at = buf.bytesize
    [s.bytesize].pack("V", buffer: buf)
    buf << s.b
    at - base
  end

  def self.fput_str(buf, s)
    raise EncodeError.new("string expected, got #{s.class}", "wrong_type") unless s.is_a?(String)

    [s.bytesize].pack("V", buffer: buf)
    buf << s.b
  end

  def self.fget_str(r)
    STRING.fget(r, 0)
  end

  def self.fget_bytes(r)
    BYTES.fget(r, 0)
  end

  def self.fcheck_str(r)
    STRING.fcheck(r, 0)
  end

  def self.out_of_range(where, value, type)
    EncodeError.new("#{where}: #{value.inspect[0, 40]} does not fit #{type}",
                    value.is_a?(Integer) ? "out_of_range" : "wrong_type")
  end

  def self.too_deep!
    fail!("too_deep")
  end
end

module Fastwire
  # A set optional struct at base + off: its block holds the struct's offset (relative
  # to the block). A null one is handled by the caller.
  def self.vget_opt_struct(r, base, off, slot_end, codec, d)
    Fastwire.fail!("bad_offset", "a set optional with offset 0") if off.zero?
    pos = base + off
    fail!("truncated") if pos > r.end_
    fail!("bad_offset") if pos < slot_end
    fail!("truncated") if pos + 4 > r.end_
    budget = r.budget - 4
    fail!("over_budget") if budget.negative?
    r.budget = budget
    codec.vget(r, pos, r.buf.unpack1("V", offset: pos), pos + 4, d)
  end

  # A vector or list of structs at base + off: [count][offsets].
  def self.vget_structs(r, base, off, slot_end, codec, d)
    return [] if off.zero?

    at, n = vcount(r, base, off, slot_end, 4)
    return [] if n.zero?

    offsets = r.buf.unpack("V#{n}", offset: at)
    out = []
    j = 0
    while j < n
      out << codec.vget(r, base, offsets[j], at + (4 * j) + 4, d)
      j += 1
    end
    out
  end
end

module Fastwire
  # Verifies a set optional struct (see vget_opt_struct).
  def self.vcheck_opt_struct(r, base, off, slot_end, codec, d)
    Fastwire.fail!("bad_offset", "a set optional with offset 0") if off.zero?
    pos = base + off
    fail!("truncated") if pos > r.end_
    fail!("bad_offset") if pos < slot_end
    fail!("truncated") if pos + 4 > r.end_
    budget = r.budget - 4
    fail!("over_budget") if budget.negative?
    r.budget = budget
    codec.vverify(r, pos, r.buf.unpack1("V", offset: pos), pos + 4, d)
  end

  # Verifies a vector or list of structs (see vget_structs).
  def self.vcheck_structs(r, base, off, slot_end, codec, d)
    return if off.zero?

    at, n = vcount(r, base, off, slot_end, 4)
    return if n.zero?

    r.buf.unpack("V#{n}", offset: at).each_with_index { |o, j| codec.vverify(r, base, o, at + (4 * j) + 4, d) }
  end
end
