# frozen_string_literal: true

module Fastwire
  # One field of a struct as the codec walks it: its schema name (the JSON key), codec,
  # slot offset in the versioned body, and whether it is hidden from the printout.
  Field = Struct.new(:name, :codec, :offset, :hidden, :index, :raw)

  # A generated struct's codec. The generator gives, from the lowered wire model, each
  # field's codec and slot offset, the body size, the body's pack format (header and
  # every slot: one unpack reads a whole body) and the final format's runs of
  # fixed-size fields (one unpack each). Generated classes provide `_fw_values` (the
  # fields in order) and `_fw_set(*values)`.
  class StructCodec < Codec
    attr_reader :cls, :type, :body, :fields

    def initialize(cls, name, type, base = nil)
      super()
      @cls = cls
      @name = name
      @type = type
      @base = base
      @fmt = "V"
      @nvals = 1
      @slot = 4
      @fields = []
      @own = []
    end

    # Binds the field table (called once, when the generated module loads) and gives the
    # class its value methods (value_methods).
    # fields: [[name, codec, offset, hidden], ...]; runs: [[first, count, fmt], ...].
    def define(fields, body, vfmt, runs, keys = nil, json = false)
      at = 8
      raw = 2
      @fields = fields.each_with_index.map do |(name, codec, offset, hidden), i|
        raise ArgumentError, "#{@name}.#{name}: slot at #{offset}, runtime #{at}" unless offset == at

        f = Field.new(name, codec, offset, hidden, i, raw)
        at += codec.slot
        raw += codec.nvals
        f
      end.freeze
      raise ArgumentError, "#{@name}: body #{body}, runtime #{at}" unless at == body

      @body = body
      @vfmt = "VV#{vfmt}"
      runtime_fmt = "VV#{@fields.map { |f| f.codec.fmt }.join}"
      raise ArgumentError, "#{@name}: format #{@vfmt}, runtime #{runtime_fmt}" unless @vfmt == runtime_fmt

      @zero = ("\0" * body).b.freeze
      @zero_root = ("\0" * (body + 8)).b.freeze # the generated vput's: [size][8], body
      @own = @base ? @fields[@base.fields.size..] : @fields
      @json_keys = @fields.map { |f| "#{JSONText.string(f.name)}:" }.freeze
      @by_name = @fields.to_h { |f| [f.name, f] }.freeze
      @vread = @fields.map { |f| [f.codec, f.raw, f.offset] }.freeze
      @fmin = @fields.sum { |f| f.codec.fmin }
      @fsize = @fields.all?(&:codec) && @fields.all? { |f| f.codec.fsize } ? @fields.sum { |f| f.codec.fsize } : nil
      build_final_plan(runs)
      value_methods(keys, json)
      self
    end

    # The generated class's ==, eql? and hash by the fields at `keys` (nil: every field),
    # <=> (and Comparable) when keyed, to_s and inspect as the C++ printout, and with
    # json: to_json and from_json.
    def value_methods(keys, json)
      codec = self
      by = keys ? ->(v) { v._fw_values.values_at(*keys) } : ->(v) { v._fw_values }
      @cls.define_method(:==) { |other| other.instance_of?(self.class) && by.call(self) == by.call(other) }
      @cls.alias_method(:eql?, :==)
      @cls.define_method(:hash) { [self.class, *by.call(self)].hash }
      if keys
        @cls.define_method(:<=>) { |other| other.instance_of?(self.class) ? by.call(self) <=> by.call(other) : nil }
        @cls.include(Comparable)
      end
      @cls.define_method(:to_s) { codec.text(self) }
      @cls.alias_method(:inspect, :to_s)
      return unless json

      @cls.define_method(:to_json) { |*_args| codec.dump_json(self) }
      @cls.define_singleton_method(:from_json) { |text, limits = nil| codec.from_json(text, limits) }
    end

    def build_final_plan(runs)
      by_first = runs.to_h { |first, count, fmt| [first, [count, fmt]] }
      plan = []
      i = 0
      while i < @fields.size
        if (run = by_first[i])
          count, fmt = run
          idx = (i...(i + count)).to_a
          codecs = idx.map { |j| @fields[j].codec }
          size = codecs.sum(&:fsize)
          decimals = []
          off = 0
          codecs.each do |c|
            decimals << (off + 14) if c.is_a?(DecimalCodec)
            off += c.fsize
          end
          plan << [:run, fmt, idx, codecs, size, decimals]
          i += count
        else
          plan << [:field, i, @fields[i].codec]
          i += 1
        end
      end
      @fplan = plan.freeze
    end

    def default
      @cls.new
    end

    def values_of(v)
      raise EncodeError.new("#{@name} expected, got #{v.class}", "wrong_type") unless v.is_a?(@cls)

      v._fw_values
    end

    # ---- versioned ---------------------------------------------------------------------

    def vwrite(vals, buf, base, v)
      vals << vput(buf, base, v)
    end

    # Appends the body and its blocks; returns the body's offset from base. A root
    # (root = true, base = where the message starts) gets its [size][8] header first.
    def vput(buf, base, v, root = false)
      if root
        buf << "\0\0\0\0\0\0\0\0"
        off = vput(buf, base, v)
        buf[base, 8] = [buf.bytesize - base, off].pack("VV")
        return off
      end
      values = values_of(v)
      pos = buf.bytesize
      buf << @zero
      vals = [@body, @type]
      @fields.each { |f| f.codec.vwrite(vals, buf, pos, values[f.index]) }
      buf[pos, @body] = vals.pack(@vfmt)
      pos - base
    end

    # Finds and checks a struct body (forward offset, size, type, depth, budget);
    # returns [position, stored size].
    def venter(r, base, off, slot_end, d)
      Fastwire.fail!("bad_offset") if off.zero?
      pos = base + off
      end_ = r.end_
      Fastwire.fail!("truncated") if pos > end_
      Fastwire.fail!("bad_offset") if pos < slot_end
      Fastwire.fail!("truncated") if pos + 8 > end_
      stored, found = r.buf.unpack("VV", offset: pos)
      Fastwire.fail!("bad_size") if stored < 8
      Fastwire.fail!("truncated") if stored > end_ - pos
      Fastwire.fail!("bad_type", "#{found} where #{@type} was expected") unless found == @type
      Fastwire.fail!("too_deep") if d < 1
      budget = r.budget - stored
      Fastwire.fail!("over_budget") if budget.negative?
      r.budget = budget
      [pos, stored]
    end

    def vread(r, raw, i, slot, base, d)
      vget(r, base, raw[i], slot + 4, d)
    end

    def vcheck(r, raw, i, slot, base, d)
      vverify(r, base, raw[i], slot + 4, d)
    end

    def vget(r, base, off, slot_end, d)
      pos, stored = venter(r, base, off, slot_end, d)
      d -= 1
      if stored >= @body
        raw = r.buf.unpack(@vfmt, offset: pos)
        values = @vread.map { |c, ri, o| c.vread(r, raw, ri, pos + o, pos, d) }
        return @cls.allocate._fw_set(*values)
      end
      # An older writer's shorter body: the fields beyond it keep their defaults.
      obj = @cls.new
      values = obj._fw_values
      @fields.each do |f|
        values[f.index] = f.codec.vget_slot(r, pos + f.offset, pos, d) if f.offset + f.codec.slot <= stored
      end
      obj._fw_set(*values)
    end

    def vverify(r, base, off, slot_end, d)
      pos, stored = venter(r, base, off, slot_end, d)
      d -= 1
      if stored >= @body
        raw = r.buf.unpack(@vfmt, offset: pos)
        @vread.each { |c, ri, o| c.vcheck(r, raw, ri, pos + o, pos, d) }
        return
      end
      @fields.each do |f|
        f.codec.vcheck_slot(r, pos + f.offset, pos, d) if f.offset + f.codec.slot <= stored
      end
    end

    # verify()'s fast walks over a binary String that is exactly one message (the
    # generated code overrides them with straight-line ones): the budget left (versioned)
    # or the position after the struct (final), nil when they cannot decide; malformed
    # input may also raise DecodeError.
    def vok(buf, _e, b, base, off, slot_end, d)
      r = Reader.new(buf, b, 0)
      vverify(r, base, off, slot_end, d)
      r.budget
    end

    def vroot(buf, e, d)
      full, at = buf.unpack("VV")
      full == e && vok(buf, e, e - 8, 0, at, 8, d)
    end

    def fok(r, _buf, p, _e, d)
      r.pos = p
      fcheck(r, d)
      r.pos
    end

    # ---- final -------------------------------------------------------------------------

    def fput(buf, v)
      values = values_of(v)
      @fplan.each do |step|
        if step[0] == :run
          _, fmt, idx, codecs = step
          idx.each_with_index.map { |j, k| codecs[k].to_wire(values[j]) }.pack(fmt, buffer: buf)
        else
          step[2].fput(buf, values[step[1]])
        end
      end
    end

    def fget(r, d)
      Fastwire.fail!("too_deep") if d < 1
      d -= 1
      values = Array.new(@fields.size)
      @fplan.each do |step|
        if step[0] == :run
          _, fmt, idx, codecs, size = step
          p = r.pos
          Fastwire.fail!("truncated") if p + size > r.end_
          raw = r.buf.unpack(fmt, offset: p)
          idx.each_with_index { |j, k| values[j] = codecs[k].of_wire(raw[k]) }
          r.pos = p + size
        else
          values[step[1]] = step[2].fget(r, d)
        end
      end
      @cls.allocate._fw_set(*values)
    end

    def fcheck(r, d)
      Fastwire.fail!("too_deep") if d < 1
      d -= 1
      @fplan.each do |step|
        if step[0] == :run
          size = step[4]
          p = r.pos
          Fastwire.fail!("truncated") if p + size > r.end_
          step[5].each { |o| Fastwire.fail!("bad_value", "decimal scale above 28") if r.buf.getbyte(p + o) > 28 }
          r.pos = p + size
        else
          step[2].fcheck(r, d)
        end
      end
      nil
    end

    # ---- JSON and printout -------------------------------------------------------------

    def dump_json(v)
      values = values_of(v)
      parts = @fields.map { |f| @json_keys[f.index] + f.codec.dump_json(values[f.index]) }
      "{#{parts.join(',')}}"
    end

    def load_json(j)
      Fastwire.fail!("bad_value", "#{@name} expects an object") unless j.is_a?(Hash)
      obj = @cls.new
      values = obj._fw_values
      @fields.each do |f|
        values[f.index] = f.codec.load_json(j[f.name]) if j.key?(f.name)
      end
      # A field's earlier values are replaced by its last one, but must be valid too.
      JSONText.repeated(j)&.each do |k, x|
        @by_name[k]&.codec&.load_json(x)
      end
      obj._fw_set(*values)
    end

    # A value from JSON text (missing fields keep their defaults, unknown keys are
    # ignored); hostile text is bounded as binary input is. Raises DecodeError.
    def from_json(text, limits = nil)
      limits ||= DEFAULT_LIMITS
      parsed = JSONText.parse(text, limits)
      saved = Thread.current[:fastwire_zero_left]
      Thread.current[:fastwire_zero_left] = limits.max_zero_size_elements
      begin
        load_json(parsed)
      ensure
        Thread.current[:fastwire_zero_left] = saved
      end
    end

    def text(v)
      values = v._fw_values
      parts = @base ? [@base.text(v)] : []
      @own.each do |f|
        parts << (f.hidden ? "#{f.name}=***" : "#{f.name}=#{f.codec.text(values[f.index])}")
      end
      "#{@name}(#{parts.join(',')})"
    end
  end
end
