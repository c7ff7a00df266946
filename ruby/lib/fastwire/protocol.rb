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

    # Defines a no-op hook (to override) for each message of HANDLERS: the generated
    # Receiver and Proxy call it after setting HANDLERS.
    def self.define_hooks
      self::HANDLERS.each_value { |_, hook| define_method(hook) { |_arg| nil } }
    end

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

module Fastwire
  # Receives the protocol's messages without building values: each message of a known
  # type is verified and its bytes passed to on_proxy_<message>(data), for forwarding or
  # storing. The generated Proxy of each package sets HANDLERS.
  class Proxy < Receiver
    def dispatch(message)
      type = type_of(message)
      return on_receive_error(DecodeError.new("truncated", "root offset"), message) if type.nil?

      model, hook = @handlers[type]
      return on_receive_unknown(type, message) if model.nil?

      begin
        model.validate(message)
      rescue DecodeError => e
        return on_receive_error(e, message)
      end
      __send__(hook, message)
    end
  end

  # Sender and Receiver in one, with requests matched to their responses on the [id]
  # field (the generated Client of each package: its Receiver's hooks, its Sender's
  # MODELS and REQUESTS). Bytes go out through on_send (default: kept in `buffer`) and
  # come in through receive. A request not answered by its deadline fails when
  # `watchdog` runs; over a socket, Fastwire::Transport::Client does this by itself.
  module ClientMethods
    def initialize(limits = nil)
      super
      @buffer = String.new(capacity: 4096, encoding: Encoding::BINARY)
      @models = self.class::MODELS
      @requests = self.class.const_defined?(:REQUESTS) ? self.class::REQUESTS : {}
      @waiting = {}
      self.intercept = method(:take_response)
    end

    attr_reader :buffer

    def send_message(value)
      model = @models[value.class] ||
              raise(EncodeError.new("#{value.class} is not a message of this protocol", "wrong_type"))
      n = model.serialize_into(@buffer, value)
      taken = on_send(@buffer)
      @buffer = @buffer.byteslice(taken..) if taken.positive?
      n
    end

    def on_send(_data)
      0
    end

    # Sends a [request]; returns a Transport::Pending whose value is its response.
    def request(request, timeout: 10.0)
      response, rejects = @requests.fetch(request.class) { raise ArgumentError, "#{request.class} is not a request" }
      pending = Transport::Pending.new(response, rejects, Transport.now + timeout)
      @waiting[request.id] = pending
      send_message(request)
      pending
    end

    # Fails the requests whose deadline passed.
    def watchdog(now = Transport.now)
      @waiting.delete_if do |_, p|
        next false unless p.deadline <= now

        p.fail(Transport::RequestError.new(:timeout, "no response within the timeout"))
        true
      end
    end

    private

    def take_response(value)
      return false unless value.respond_to?(:id) && (p = @waiting[value.id])
      return false unless value.is_a?(p.response) || p.rejects.any? { |r| value.is_a?(r) }

      @waiting.delete(value.id)
      if value.is_a?(p.response)
        p.resolve(value)
      else
        p.fail(Transport::RequestError.new(:rejected, "rejected: #{value}", value))
      end
      true
    end
  end
end

module Fastwire
  # Proxy in the final format.
  class FinalProxy < Proxy
    FINAL = true
  end
end
