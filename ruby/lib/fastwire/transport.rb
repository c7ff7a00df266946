# frozen_string_literal: true

require "socket"

module Fastwire
  # The Sender/Receiver protocol over TCP, by the contract of docs/transport.md: bounded
  # send queues with an overflow policy, write, message and idle timeouts, framing
  # checked before anything is buffered, requests that time out by themselves, and a
  # graceful shutdown that delivers what was queued.
  #
  #   class Handler < Service::Receiver                 # one per connection
  #     def initialize(peer)
  #       super()
  #       @peer = peer
  #     end
  #
  #     def on_receive_order_request(q)
  #       @peer.send_message(Service::OrderAck.new(id: q.id, seq: 1, order: q.order))
  #     end
  #   end
  #
  #   server = Fastwire::Transport::Server.new(Handler, Service::Sender, "::", 0, log: method(:warn))
  #   server.start                                      # server.port
  #   client = Fastwire::Transport::Client.new(Service::Receiver, Service::Sender)
  #   client.connect("127.0.0.1", server.port)
  #   ack = client.request(Service::OrderRequest.new(order: order))   # RequestError
  #   client.send_message(Service::OrderMessage.new(body: order))     # false: not queued
  #   client.close
  #   server.stop
  #
  # Threads: each connection has a reader thread (it decodes and calls the handler's
  # hooks, one message at a time, in order) and a writer thread (the send queue);
  # send_message and request may be called from any thread.
  module Transport
    # The policies (seconds; nil turns a timeout off).
    Options = Struct.new(:max_queued_bytes, :overflow, :write_timeout, :message_timeout,
                         :idle_timeout, :receive_limits, :max_connections, :connect_timeout,
                         :request_timeout, :shutdown_timeout, :reconnect_delay, :reconnect_max_delay,
                         keyword_init: true) do
      def initialize(max_queued_bytes: 8 << 20, overflow: :disconnect, write_timeout: 10.0,
                     message_timeout: 10.0, idle_timeout: nil, receive_limits: DEFAULT_LIMITS,
                     max_connections: 10_000, connect_timeout: 5.0, request_timeout: 10.0,
                     shutdown_timeout: 5.0, reconnect_delay: nil, reconnect_max_delay: 5.0)
        super
      end

      # The timer tick: a quarter of the shortest timeout, between 5 ms and 250 ms.
      def tick
        shortest = [write_timeout, message_timeout, idle_timeout, request_timeout].compact.min || 1.0
        (shortest / 4.0).clamp(0.005, 0.25)
      end
    end

    # Connecting failed, or a connection-level misuse.
    class TransportError < Fastwire::Error; end

    # A request that did not get its response: kind is :rejected (reject holds the
    # reject message), :timeout, :disconnected or :overflow.
    class RequestError < Fastwire::Error
      attr_reader :kind, :reject

      def initialize(kind, message, reject = nil)
        @kind = kind
        @reject = reject
        super(message)
      end
    end

    def self.now
      Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end

    # A framing or decoding error on a connection's input.
    class ProtocolError < StandardError; end

    # One socket: its receiver, its send queue and the two threads that serve them.
    class Connection
      READ_SIZE = 16 * 1024

      attr_reader :name, :receiver

      def initialize(socket, receiver, models, options, name, log, &on_close)
        @socket = socket
        @receiver = receiver
        @models = models
        @options = options
        @name = name
        @log = log
        @on_close = on_close
        @mutex = Mutex.new
        @wake = ConditionVariable.new # the writer: bytes queued, or a state change
        @room = ConditionVariable.new # blocked senders: the queue shrank
        @queue = []
        @queued = 0
        @state = :open # :open, :closing (flush, half-close, wait for the peer), :closed
        @discard = false
        @received = 0
        @partial_since = nil
        @last_input = Transport.now
        @closed_reason = nil
        @done = ConditionVariable.new
        install_error_hook
      end

      def start
        @reader = Thread.new { guard { read_loop } }
        @writer = Thread.new { guard { write_loop } }
        self
      end

      def open?
        @mutex.synchronize { @state == :open }
      end

      def closed?
        @mutex.synchronize { @state == :closed }
      end

      def queued
        @mutex.synchronize { @queued }
      end

      # Serializes and queues one message; false when it was not queued.
      def send_message(value, block: @options.overflow == :block)
        model = @models[value.class] ||
                raise(EncodeError.new("#{value.class} is not a message of this protocol", "wrong_type"))
        enqueue(model.serialize(value), block: block)
      end

      def enqueue(bytes, block: false)
        n = bytes.bytesize
        full = nil
        @mutex.synchronize do
          return false unless @state == :open

          limit = @options.max_queued_bytes
          if @queued + n > limit
            if block || @options.overflow == :block
              deadline = Transport.now + @options.write_timeout
              while @state == :open && @queued + n > limit && (left = deadline - Transport.now).positive?
                @room.wait(@mutex, left)
              end
              return false unless @state == :open && @queued + n <= limit
            elsif @options.overflow == :fail
              return false
            else
              full = "send queue full (#{@queued} bytes queued, #{n} more, limit #{limit})"
            end
          end
          unless full
            @queue << bytes
            @queued += n
            @wake.signal
          end
        end
        return true unless full

        close_now(full)
        false
      end

      # Graceful close: no more sends (and, with discard, no more input handled); flush
      # the queue; half-close; close when the peer closes or at shutdown_timeout.
      def shutdown(reason, discard: false)
        @mutex.synchronize do
          return unless @state == :open

          @state = :closing
          @discard ||= discard
          @closed_reason = reason
          @shutdown_deadline = Transport.now + @options.shutdown_timeout
          @wake.broadcast
          @room.broadcast
        end
      end

      # Closes at once, dropping what is queued.
      def close_now(reason)
        @mutex.synchronize do
          return if @state == :closed

          @state = :closed
          @closed_reason ||= reason
          @closed_reason = reason unless reason.nil?
          @wake.broadcast
          @room.broadcast
          @done.broadcast
        end
        begin
          @socket.close
        rescue IOError, SystemCallError
          nil
        end
        @log&.call("#{@name} closed: #{@closed_reason}")
        @on_close&.call(self, @closed_reason)
      end

      # Waits until the connection is closed (at most `timeout` seconds).
      def wait_closed(timeout)
        deadline = Transport.now + timeout
        @mutex.synchronize do
          while @state != :closed && (left = deadline - Transport.now).positive?
            @done.wait(@mutex, left)
          end
          @state == :closed
        end
      end

      private

      def guard
        yield
      rescue IOError, SystemCallError => e
        close_now("#{Thread.current == @reader ? 'read' : 'write'} failed: #{e.message}") unless closed?
      end

      def install_error_hook
        conn = self
        @receiver.define_singleton_method(:on_receive_error) do |error, data|
          conn.__send__(:protocol_error, error, data)
        end
      end

      def protocol_error(error, data)
        if error.detail.start_with?("message size")
          size = error.detail.split.last
          raise ProtocolError, "protocol error: bad message size #{size} at stream offset #{@received - data.bytesize}"
        end
        raise ProtocolError, "protocol error: #{error.message}"
      end

      def read_loop
        tick = @options.tick
        loop do
          return if closed?

          ready = @socket.wait_readable(tick)
          if ready.nil?
            return if check_input_timeouts

            next
          end
          data = @socket.read_nonblock(READ_SIZE, exception: false)
          next if data == :wait_readable

          if data.nil?
            peer_closed
            return
          end
          @received += data.bytesize
          @last_input = Transport.now
          next if @mutex.synchronize { @discard }

          begin
            @receiver.receive(data)
          rescue ProtocolError => e
            close_now(e.message)
            return
          rescue StandardError => e
            close_now("handler failed: #{e.class}: #{e.message}")
            return
          end
          pending = @receiver.pending
          @partial_since = pending.zero? ? nil : (@partial_since || Transport.now)
          return if @partial_since && check_input_timeouts # a trickle keeps the socket readable
        end
      end

      # True when the connection was closed for a timeout.
      def check_input_timeouts
        now = Transport.now
        if @partial_since && @options.message_timeout && now - @partial_since > @options.message_timeout
          close_now(format("message incomplete after %d ms (%d bytes received)",
                           @options.message_timeout * 1000, @receiver.pending))
          return true
        end
        if @options.idle_timeout && open? && now - @last_input > @options.idle_timeout
          shutdown(format("idle for %d ms", @options.idle_timeout * 1000))
        end
        false
      end

      def peer_closed
        pending = @receiver.pending
        if pending.positive? && !@mutex.synchronize { @discard }
          close_now("peer closed the connection in the middle of a message (#{pending} bytes received)")
          return
        end
        @peer_eof = true
        closing = false
        @mutex.synchronize do
          closing = @state == :closing
          @closed_reason ||= "peer closed the connection" unless closing
          @state = :closing
          @shutdown_deadline ||= Transport.now + @options.shutdown_timeout
          @wake.broadcast
        end
      end

      def write_loop
        tick = @options.tick
        loop do
          chunk = nil
          @mutex.synchronize do
            while @state != :closed && @queue.empty?
              break if @state == :closing

              @wake.wait(@mutex, tick)
            end
            return if @state == :closed

            unless @queue.empty?
              chunk = @queue.size == 1 ? @queue[0] : @queue.join
              @queue.clear
            end
          end
          if chunk
            write_all(chunk) or return
            @mutex.synchronize do
              @queued -= chunk.bytesize
              @room.broadcast
            end
            next
          end
          # Closing and the queue is empty: half-close, then wait for the peer's end.
          finish_closing or return
        end
      end

      def write_all(chunk)
        at = 0
        progress = Transport.now
        while at < chunk.bytesize
          n = @socket.write_nonblock(at.zero? ? chunk : chunk.byteslice(at..), exception: false)
          if n == :wait_writable
            return false if closed?

            if Transport.now - progress > @options.write_timeout
              close_now(format("peer not reading: %d bytes unsent for %d ms", chunk.bytesize - at + queued,
                               @options.write_timeout * 1000))
              return false
            end
            @socket.wait_writable(@options.tick)
            next
          end
          at += n
          progress = Transport.now
        end
        true
      end

      # Returns false when the connection is done.
      def finish_closing
        unless @half_closed
          @half_closed = true
          begin
            @socket.close_write
          rescue IOError, SystemCallError
            nil
          end
        end
        if @peer_eof
          close_now(nil)
          return false
        end
        if Transport.now > @shutdown_deadline
          close_now("shutdown timed out with #{queued} bytes unsent")
          return false
        end
        @mutex.synchronize { @wake.wait(@mutex, @options.tick) if @state == :closing && @queue.empty? }
        true
      end
    end

    # What a server's handler sends through: the connection it serves.
    class Peer
      attr_reader :id, :remote

      def initialize(id, remote)
        @id = id
        @remote = remote
        @connection = nil
      end

      def bind(connection)
        @connection = connection
      end

      # Sends to this peer; false when not queued (full queue with overflow :fail or
      # :block, or a closed connection).
      def send_message(value)
        @connection.send_message(value)
      end

      def close(reason = "closed by the server")
        @connection.shutdown(reason)
      end

      def queued
        @connection.queued
      end
    end

    # Listens on one address and serves each client on its own connection, with its own
    # handler (handler_class.new(peer): a generated Receiver subclass).
    class Server
      attr_reader :port, :accepted

      def initialize(handler_class, sender_class, host = "::", port = 0, options: Options.new, log: nil)
        @handler_class = handler_class
        @models = sender_class::MODELS
        @host = host
        @want_port = port
        @options = options
        @log = log
        @connections = {}
        @mutex = Mutex.new
        @accepted = 0
        @stopping = false
      end

      def start
        @listener = TCPServer.new(@host, @want_port)
        @port = @listener.local_address.ip_port
        @acceptor = Thread.new { accept_loop }
        self
      end

      def connections
        @mutex.synchronize { @connections.size }
      end

      # Stops accepting, stops handling input, flushes every connection's queue and
      # closes each when its peer has closed (or at shutdown_timeout).
      def stop
        conns = @mutex.synchronize do
          @stopping = true
          @connections.values
        end
        begin
          @listener&.close
        rescue IOError
          nil
        end
        @acceptor&.join
        conns.each { |c| c.shutdown("server stopping", discard: true) }
        conns.each { |c| c.wait_closed(@options.shutdown_timeout + 1) }
      end

      private

      def accept_loop
        loop do
          socket = @listener.accept
          accept(socket)
        end
      rescue IOError, SystemCallError
        nil # the listener was closed
      end

      def accept(socket)
        socket.setsockopt(Socket::IPPROTO_TCP, Socket::TCP_NODELAY, 1)
        addr = socket.remote_address
        remote = addr.ipv6? ? "[#{addr.ip_address}]:#{addr.ip_port}" : "#{addr.ip_address}:#{addr.ip_port}"
        id = @mutex.synchronize { @accepted += 1 }
        name = "connection #{id} #{remote}"
        if @mutex.synchronize { @stopping || @connections.size >= @options.max_connections }
          @log&.call("#{name} refused")
          socket.close
          return
        end
        peer = Peer.new(id, remote)
        handler = @handler_class.new(peer)
        handler.limits = @options.receive_limits
        conn = Connection.new(socket, handler, @models, @options, name, @log) do |c, _reason|
          @mutex.synchronize { @connections.delete(c.object_id) }
        end
        peer.bind(conn)
        @mutex.synchronize { @connections[conn.object_id] = conn }
        @log&.call("#{name} accepted")
        conn.start
      end
    end

    # A request waiting for its response.
    class Pending
      attr_reader :deadline, :response, :rejects

      def initialize(response, rejects, deadline)
        @response = response
        @rejects = rejects
        @deadline = deadline
        @mutex = Mutex.new
        @cv = ConditionVariable.new
        @done = false
        @value = nil
        @error = nil
      end

      def resolve(value)
        finish(value, nil)
      end

      def fail(error)
        finish(nil, error)
      end

      def done?
        @mutex.synchronize { @done }
      end

      # The response; raises RequestError. Returns by the request's deadline at the latest.
      def value
        @mutex.synchronize do
          until @done
            left = @deadline - Transport.now
            if left <= 0
              @done = true
              @error = RequestError.new(:timeout, "no response within the timeout")
              break
            end
            @cv.wait(@mutex, left)
          end
          raise @error if @error

          @value
        end
      end

      private

      def finish(value, error)
        @mutex.synchronize do
          return false if @done

          @done = true
          @value = value
          @error = error
          @cv.broadcast
          true
        end
      end
    end

    # One connection to a server: send_message, request (matched on the [id] field) and
    # a graceful close. receiver_class (a generated Receiver, or a subclass for its
    # hooks) gets the messages that are not responses.
    class Client
      attr_reader :receiver

      def initialize(receiver_class, sender_class, options: Options.new, log: nil)
        @receiver_class = receiver_class
        @sender_class = sender_class
        @models = sender_class::MODELS
        @requests = sender_class.const_defined?(:REQUESTS) ? sender_class::REQUESTS : {}
        @options = options
        @log = log
        @pending = {}
        @mutex = Mutex.new
        @connection = nil
      end

      # Connects (TransportError when it cannot). With reconnect_delay set, a dropped
      # connection is made again after that delay, doubling up to reconnect_max_delay;
      # requests pending at the drop fail and are not sent again.
      def connect(host, port)
        @host = host
        @port = port
        @closing = false
        open_connection
        @timer = Thread.new { timer_loop }
        self
      end

      # Connections made so far (reconnections included).
      def connects
        @mutex.synchronize { @connects || 0 }
      end

      def open_connection
        begin
          socket = Socket.tcp(@host, @port, connect_timeout: @options.connect_timeout)
        rescue SystemCallError, SocketError, IOError => e
          raise TransportError, "cannot connect to #{@host}:#{@port}: #{e.message}"
        end
        socket.setsockopt(Socket::IPPROTO_TCP, Socket::TCP_NODELAY, 1)
        @receiver = @receiver_class.new(@options.receive_limits)
        @receiver.intercept = method(:take_response)
        @connection = Connection.new(socket, @receiver, @models, @options, "connection to #{@host}:#{@port}",
                                     @log) { |_c, reason| dropped(reason) }
        @mutex.synchronize { @connects = (@connects || 0) + 1 }
        @connection.start
      end

      def connected?
        !@connection.nil? && @connection.open?
      end

      def queued
        @connection ? @connection.queued : 0
      end

      def send_message(value)
        return false unless @connection

        @connection.send_message(value)
      end

      # Sends a [request] and returns a Pending whose value is the response. The
      # response and reject types come from the generated REQUESTS table unless given.
      def request_async(request, response = nil, rejects: nil, timeout: nil)
        response, listed = @requests.fetch(request.class, [nil, []]) if response.nil?
        raise ArgumentError, "#{request.class} has no response type" if response.nil?

        rejects ||= listed || []
        pending = Pending.new(response, rejects, Transport.now + (timeout || @options.request_timeout))
        unless connected?
          pending.fail(RequestError.new(:disconnected, "not connected"))
          return pending
        end
        @mutex.synchronize { @pending[request.id] = pending }
        unless @connection.send_message(request)
          @mutex.synchronize { @pending.delete(request.id) }
          kind = connected? ? :overflow : :disconnected
          pending.fail(RequestError.new(kind, kind == :overflow ? "send queue full" : "disconnected"))
        end
        pending
      end

      def request(request, response = nil, rejects: nil, timeout: nil)
        request_async(request, response, rejects: rejects, timeout: timeout).value
      end

      # No more sends; flush; half-close; keep reading until the server closes its side
      # (answers to requests in flight still arrive), or shutdown_timeout.
      def close
        return unless @connection

        @closing = true
        @connection.shutdown("closed by the client")
        @connection.wait_closed(@options.shutdown_timeout + 1)
        @timer&.join
      end

      private

      def take_response(value)
        return false unless value.respond_to?(:id)

        pending = @mutex.synchronize do
          p = @pending[value.id]
          next nil unless p && (value.is_a?(p.response) || p.rejects.any? { |r| value.is_a?(r) })

          @pending.delete(value.id)
        end
        return false unless pending

        if value.is_a?(pending.response)
          pending.resolve(value)
        else
          pending.fail(RequestError.new(:rejected, "rejected: #{value}", value))
        end
        true
      end

      def dropped(reason)
        fail_all(reason)
        return if @closing || @options.reconnect_delay.nil?

        Thread.new do
          delay = @options.reconnect_delay
          until @closing
            sleep delay
            begin
              open_connection unless @closing
              break
            rescue TransportError => e
              @log&.call("connection to #{@host}:#{@port}: reconnect failed: #{e.message}")
              delay = [delay * 2, @options.reconnect_max_delay].min
            end
          end
        end
      end

      def fail_all(reason)
        failed = @mutex.synchronize do
          all = @pending.values
          @pending.clear
          all
        end
        failed.each { |p| p.fail(RequestError.new(:disconnected, "disconnected: #{reason}")) }
      end

      def timer_loop
        tick = @options.tick
        until @closing ? @connection.closed? : (@connection.closed? && @options.reconnect_delay.nil?)
          sleep tick
          now = Transport.now
          expired = @mutex.synchronize do
            gone = @pending.select { |_, p| p.deadline <= now }
            gone.each_key { |k| @pending.delete(k) }
            gone.values
          end
          expired.each { |p| p.fail(RequestError.new(:timeout, "no response within the timeout")) }
        end
      end
    end
  end
end
