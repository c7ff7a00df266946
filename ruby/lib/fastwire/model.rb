# frozen_string_literal: true

module Fastwire
  # A root struct as a self-contained message in one binary format.
  #
  #   model = Proto::AccountModel.new            # versioned; AccountFinalModel: final
  #   data = model.serialize(account)            # binary String (252 bytes for the seed)
  #   model.verify(data)                         # true / false
  #   account = model.deserialize(data)          # checked: raises Fastwire::DecodeError
  #
  # deserialize makes every check verify makes, as it reads, so it never needs a prior
  # verify. Malformed input raises DecodeError and nothing else.
  class ModelBase
    attr_reader :limits, :codec

    class << self
      attr_accessor :codec
    end

    def initialize(limits = nil)
      @limits = limits || DEFAULT_LIMITS
      @codec = self.class.codec
    end

    def type
      @codec.type
    end

    # The size the model at offset declares (0 when fewer than 4 bytes remain).
    def size(buf, offset = 0)
      buf.bytesize - offset >= 4 ? buf.unpack1("V", offset: offset) : 0
    end

    # true when the message at offset is well formed (docs/security.md). The usual case
    # (a binary String holding exactly one message) takes the codec's fast walk; anything
    # it cannot decide goes through validate, the checked walk.
    def verify(buf, offset = 0)
      return true if offset.zero? && buf.encoding == Encoding::BINARY && fast_verify(buf)

      validate(buf, offset)
      true
    rescue DecodeError
      false
    end

    def serialize(value)
      buf = "".b
      serialize_into(buf, value)
      buf
    end

    private

    def encoding_error(err)
      EncodeError.new("#{@codec.name}: #{err.message}", "wrong_type")
    end
  end

  # A root struct in the versioned format: [u32 full size][u32 8][body][blocks].
  class Model < ModelBase
    def serialize_into(buf, value)
      start = buf.bytesize
      begin
        @codec.vput(buf, start, value, true) # the root: header and body in one write
      rescue EncodeError
        buf.slice!(start..)
        raise
      rescue TypeError, ArgumentError, RangeError, NoMethodError => e
        buf.slice!(start..)
        raise encoding_error(e)
      end
      buf.bytesize - start
    end

    def root(buf, offset)
      avail = buf.bytesize - offset
      Fastwire.fail!("truncated") if offset.negative? || avail < 8
      full = buf.unpack1("V", offset: offset)
      Fastwire.fail!("too_large", "#{full} bytes") if full > @limits.max_message_size
      Fastwire.fail!("truncated") if full > avail
      Fastwire.fail!("bad_size") if full < 16
      data = offset.zero? && full == buf.bytesize ? buf : buf.byteslice(offset, full)
      data = data.b unless data.encoding == Encoding::BINARY
      [Reader.new(data, full - 8, @limits.max_zero_size_elements), data.unpack1("V", offset: 4)]
    end

    def fast_verify(buf)
      n = buf.bytesize
      n >= 16 && n <= @limits.max_message_size && @codec.vroot(buf, n, @limits.max_depth)
    end

    # Checks the model at offset; returns its size or raises DecodeError.
    def validate(buf, offset = 0)
      if offset.zero? && buf.encoding == Encoding::BINARY && (n = buf.bytesize) >= 16
        full, at = buf.unpack("VV")
        if full == n && full <= @limits.max_message_size # the usual case: exactly one message
          @codec.vverify(Reader.new(buf, full - 8, @limits.max_zero_size_elements), 0, at, 8, @limits.max_depth)
          return full
        end
      end
      r, at = root(buf, offset)
      @codec.vverify(r, 0, at, 8, @limits.max_depth)
      r.end_
    end

    def deserialize(buf, offset = 0)
      if offset.zero? && buf.encoding == Encoding::BINARY && (n = buf.bytesize) >= 16
        full, at = buf.unpack("VV")
        if full == n && full <= @limits.max_message_size # the usual case: exactly one message
          return @codec.vget(Reader.new(buf, full - 8, @limits.max_zero_size_elements), 0, at, 8, @limits.max_depth)
        end
      end
      r, at = root(buf, offset)
      @codec.vget(r, 0, at, 8, @limits.max_depth)
    end
  end

  # A root struct in the final format: [u32 size][u32 type][fields].
  class FinalModel < ModelBase
    def serialize_into(buf, value)
      start = buf.bytesize
      buf << "\0\0\0\0\0\0\0\0"
      begin
        @codec.fput(buf, value)
      rescue EncodeError
        buf.slice!(start..)
        raise
      rescue TypeError, ArgumentError, RangeError, NoMethodError => e
        buf.slice!(start..)
        raise encoding_error(e)
      end
      buf[start, 8] = [buf.bytesize - start, @codec.type].pack("VV")
      buf.bytesize - start
    end

    def root(buf, offset)
      avail = buf.bytesize - offset
      Fastwire.fail!("truncated") if offset.negative? || avail < 8
      size, found = buf.unpack("VV", offset: offset)
      Fastwire.fail!("too_large", "#{size} bytes") if size > @limits.max_message_size
      Fastwire.fail!("truncated") if size > avail
      Fastwire.fail!("bad_size") if size < 8
      Fastwire.fail!("bad_type", "#{found} where #{@codec.type} was expected") unless found == @codec.type
      data = offset.zero? && size == buf.bytesize ? buf : buf.byteslice(offset, size)
      data = data.b unless data.encoding == Encoding::BINARY
      r = Reader.new(data, 0, @limits.max_zero_size_elements)
      r.pos = 8
      r
    end

    # A reader of the model at offset, its header checked: at once for the usual case (a
    # binary String holding exactly one message), else through root.
    def reader(buf, offset)
      if offset.zero? && buf.encoding == Encoding::BINARY && (n = buf.bytesize) >= 8
        size, found = buf.unpack("VV")
        if size == n && size <= @limits.max_message_size && found == @codec.type
          r = Reader.new(buf, 0, @limits.max_zero_size_elements)
          r.pos = 8
          return r
        end
      end
      root(buf, offset)
    end

    def finish(r)
      return if r.pos == r.end_

      Fastwire.fail!(r.pos > r.end_ ? "truncated" : "bad_size")
    end

    def fast_verify(buf)
      n = buf.bytesize
      return false if n < 8

      size, found = buf.unpack("VV")
      lim = @limits
      size == n && size <= lim.max_message_size && found == @codec.type &&
        @codec.fok(Reader.new(buf, 0, lim.max_zero_size_elements), buf, 8, n, lim.max_depth) == n
    end

    def validate(buf, offset = 0)
      r = reader(buf, offset)
      @codec.fcheck(r, @limits.max_depth)
      finish(r)
      r.end_
    end

    def deserialize(buf, offset = 0)
      r = reader(buf, offset)
      value = @codec.fget(r, @limits.max_depth)
      finish(r)
      value
    end
  end
end
