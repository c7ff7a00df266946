package examples

import com.chronoxor.proto.Account
import com.chronoxor.proto.Balance
import com.chronoxor.proto.Order
import com.chronoxor.proto.OrderSide
import com.chronoxor.proto.OrderType
import com.chronoxor.proto.State
import com.chronoxor.protocol.AccountMessage
import com.chronoxor.protocol.BalanceMessage
import com.chronoxor.protocol.OrderMessage
import com.chronoxor.protocol.ProtocolReceiver
import com.chronoxor.protocol.ProtocolSender
import dev.fastwire.FinalModel
import dev.fastwire.Model

/** The seed account in Kotlin: data classes with the schema's defaults. */
fun seed() = Account(
    uid = 1, name = "Test", state = State.initialized or State.calculated,
    wallet = Balance("USD", 1000.0), asset = Balance("EUR", 100.0),
    orders = mutableListOf(
        Order(1, "EURUSD", OrderSide.buy, OrderType.market, 1.23456, 1000.0),
        Order(2, "EURUSD", OrderSide.sell, OrderType.limit, 1.0, 100.0),
        Order(3, "EURUSD", OrderSide.buy, OrderType.stop, 1.5, 10.0)
    )
)

/** The seed account: serialized in both formats and JSON, read back. */
object AccountExample {
    @JvmStatic
    fun main(args: Array<String>) {
        val model = Model(Account.CODEC)
        val bytes = model.serialize(seed())          // 252 bytes, as the reference writes
        val copy = model.deserialize(bytes)          // checked: throws DecodeException when malformed
        val fin = FinalModel(Account.CODEC)
        val compact = fin.serialize(copy)            // 152 bytes
        println("FBE size: ${bytes.size}")
        println("FBE final size: ${compact.size}")
        println(fin.deserialize(compact))
        println(Account.CODEC.toJson(copy))
    }
}

/** The seed's messages through a Sender into a Receiver, 7 bytes at a time. */
object ProtocolExample {
    @JvmStatic
    fun main(args: Array<String>) {
        val account = seed()
        val receiver = object : ProtocolReceiver() {
            override fun onReceive(value: OrderMessage) = println("onReceive: ${value.body}")
            override fun onReceive(value: BalanceMessage) = println("onReceive: ${value.body}")
            override fun onReceive(value: AccountMessage) = println("onReceive: ${value.body}")
        }
        val sender = ProtocolSender()
        val messages = listOf(OrderMessage(account.orders[0]), BalanceMessage(account.wallet), AccountMessage(account))
        for (m in messages) println("onSend: ${(m as? OrderMessage)?.body ?: (m as? BalanceMessage)?.body ?: (m as AccountMessage).body}")
        sender.send(messages[0] as OrderMessage)
        sender.send(messages[1] as BalanceMessage)
        sender.send(messages[2] as AccountMessage)
        val stream = sender.buffer
        for (i in 0 until stream.size step 7) receiver.receive(stream.buf, i, minOf(7, stream.size - i))
    }
}
