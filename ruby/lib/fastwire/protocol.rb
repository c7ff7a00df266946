# frozen_string_literal: true

module Fastwire
  # Serializes messages into a byte stream (root models back to back, no extra framing)
  # and offers the queued bytes to on_send. The generated Sender of each package sets
  # MODELS (class => model) to what its protocol sends.
  #
  #   sender = Protocol::Sender.new
  #   sender.send_message(Protocol::OrderMessage.new(body: order))
  #   sender.buffer                       # the stream so far (on_send took nothing)
  class Sender
    MODELS = {}.freeze

    attr_reader :buffer

    def initialize
      @buffer = String.new(capacity: 4096, encoding: Encoding::BINARY)
      @models = self.class::MODELS
    end

    # Sends one message; returns its serialized size.
    def send_message(value)
      model = @models[value.class] ||
              raise(EncodeError.new("#{value.class} is not a message of this protocol", "wrong_type"))
      n = model.serialize_into(@buffer, value)
      taken = on_send(@buffer)
      @buffer = @buffer.byteslice(taken..) if taken.positive?
      n
    end

    # Called with every byte still queued; returns how many were sent (default: none,
    # so `buffer` keeps the whole stream).
    def on_send(_data)
      0
    end

    def reset
      @buffer.clear
    end
  end

  # Sender in the final format.
  class FinalSender < Sender; end

  # Reassembles messages from chunks of any size and dispatches them by type number to
  # the generated on_receive_<message> hooks. An unknown type goes to
  # on_receive_unknown(type, data); a malformed message, or a size that cannot start a
  # message (below the header, above Limits#max_message_size), to
  # on_receive_error(error, data), which raises by default (a bad size drops the bytes
  # queued: a stream cannot resynchronise).
  class Receiver
    HANDLERS = {}.freeze
    FINAL = false

    attr_reader :limits
    # A transport's hook: called with each decoded value before its on_receive_ hook;
    # a true answer means the value was taken (a response to a pending request).
    attr_accessor :intercept

    def initialize(limits = nil)
      @pending = String.new(encoding: Encoding::BINARY)
      @final = self.class::FINAL
      @intercept = nil
      self.limits = limits.is_a?(Limits) ? limits : DEFAULT_LIMITS
    end

    def limits=(limits)
      @limits = limits
      @handlers = self.class::HANDLERS.transform_values { |m, hook| [m.class.new(@limits), hook] }
    end

    def final?
      @final
    end

    # Bytes received that do not complete a message yet.
    def pending
      @pending.bytesize
    end

    def reset
      @pending.clear
    end

    # Feeds received bytes; returns the number of complete messages handled.
    def receive(data)
      @pending << data.b
      minimum = @final ? 8 : 16
      handled = 0
      at = 0
      while @pending.bytesize - at >= 4
        size = @pending.unpack1("V", offset: at)
        if size < minimum || size > @limits.max_message_size
          junk = @pending.byteslice(at..)
          @pending = String.new(encoding: Encoding::BINARY)
          at = 0
          on_receive_error(DecodeError.new(size < minimum ? "bad_size" : "too_large", "message size #{size}"), junk)
          break
        end
        break if @pending.bytesize - at < size

        message = @pending.byteslice(at, size)
        at += size
        handled += 1
        dispatch(message)
      end
      @pending = @pending.byteslice(at..) if at.positive?
      handled
    end

    def type_of(message)
      return message.unpack1("V", offset: 4) if @final

      root = message.unpack1("V", offset: 4)
      return nil if root > message.bytesize - 8

      message.unpack1("V", offset: root + 4)
    end

    def dispatch(message)
      type = type_of(message)
      return on_receive_error(DecodeError.new("truncated", "root offset"), message) if type.nil?

      model, hook = @handlers[type]
      return on_receive_unknown(type, message) if model.nil?

      begin
        value = model.deserialize(message)
      rescue DecodeError => e
        return on_receive_error(e, message)
      end
      return if @intercept&.call(value)

      __send__(hook, value)
    end

    # A message whose type this protocol does not declare (skipped).
    def on_receive_unknown(type, data); end

    # A malformed message or stream. Raises error unless overridden.
    def on_receive_error(error, _data)
      raise error
    end
  end

  # Receiver in the final format.
  class FinalReceiver < Receiver
    FINAL = true
  end
end
