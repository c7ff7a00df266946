package dev.fastwire.tests

import com.chronoxor.proto.Account
import com.chronoxor.proto.Balance
import com.chronoxor.proto.Order
import com.chronoxor.proto.OrderSide
import com.chronoxor.proto.OrderType
import com.chronoxor.proto.ProtoProxy
import com.chronoxor.proto.ProtoSender
import com.chronoxor.proto.State
import com.example.fastwire.everything.Primitives
import dev.fastwire.DecodeException
import dev.fastwire.FinalModel
import dev.fastwire.Model
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/** The Kotlin classes over the JVM runtime: the reference's vectors, unsigned types, reuse. */
class KotlinTest {
    private val root: Path = Path.of(System.getProperty("fastwire.root", "../..")).toAbsolutePath().normalize()

    private fun hex(name: String): ByteArray {
        val digits = Files.readString(root.resolve("tests/vectors/$name")).replace(Regex("[^0-9a-fA-F]"), "")
        return ByteArray(digits.length / 2) { digits.substring(2 * it, 2 * it + 2).toInt(16).toByte() }
    }

    private fun text(name: String) = Files.readString(root.resolve("tests/vectors/$name")).trim()

    private fun seed() = Account(
        uid = 1, name = "Test", state = State.initialized or State.calculated,
        wallet = Balance("USD", 1000.0), asset = Balance("EUR", 100.0),
        orders = mutableListOf(
            Order(1, "EURUSD", OrderSide.buy, OrderType.market, 1.23456, 1000.0),
            Order(2, "EURUSD", OrderSide.sell, OrderType.limit, 1.0, 100.0),
            Order(3, "EURUSD", OrderSide.buy, OrderType.stop, 1.5, 10.0)
        )
    )

    @Test
    fun seedAccountMatchesTheVectors() {
        val a = seed()
        assertArrayEquals(hex("account.fbe.hex"), Model(Account.CODEC).serialize(a))
        assertArrayEquals(hex("account.final.hex"), FinalModel(Account.CODEC).serialize(a))
        assertEquals(text("account.json"), Account.CODEC.toJson(a))
        val back = Model(Account.CODEC).deserialize(hex("account.fbe.hex"))
        assertEquals(a.toString(), back.toString())
        assertEquals(a.orders, back.orders)
        assertEquals(a.copy(name = "other"), a)  // equal by the [key] field uid
        val f = FinalModel(Account.CODEC).deserialize(hex("account.final.hex"))
        assertEquals(text("account.json"), Account.CODEC.toJson(f))
    }

    @Test
    fun serializeWritesEveryKindOfString() {
        // Run twice by Surefire: with StringBytes on and with -Dfastwire.unsafe=false.
        val model = Model(Account.CODEC)
        val fin = FinalModel(Account.CODEC)
        val base = model.serialize(seed()).size
        val fbase = fin.serialize(seed()).size
        val strings = listOf(
            "", "a", "abcdefg", "abcdefgh", "abcdefghi", "caf\u00e9", "\u00e9t\u00e9!", "\u0080",
            "\u20ac", "x\uD83D\uDE00y", "\u007f\u0000", "A".repeat(40), "A".repeat(39) + "\u00ff", "B".repeat(33) + "\u20ac"
        )
        for (s in strings) {
            val a = seed().copy(name = s, wallet = Balance(s, 1000.0), asset = Balance(s, 100.0))
            a.orders[1] = a.orders[1].copy(symbol = s)
            val grow = 4 * s.toByteArray(Charsets.UTF_8).size - 4 - 3 - 3 - 6
            val v = model.serialize(a)
            val f = fin.serialize(a)
            assertEquals(base + grow, v.size, s)
            assertEquals(fbase + grow, f.size, s)
            assertEquals(a.toString(), model.deserialize(v).toString(), s)
            assertEquals(a.toString(), fin.deserialize(f).toString(), s)
        }
    }

    @Test
    fun deserializeFillsTheGivenObject() {
        val bytes = hex("account.fbe.hex")
        val model = Model(Account.CODEC)
        val reuse = Account()
        assertSame(reuse, model.deserialize(bytes, 0, bytes.size, reuse))
        assertEquals(seed().toString(), reuse.toString())
    }

    @Test
    fun unsignedTypesKeepTheirRange() {
        val p = Primitives()
        assertEquals(255.toUByte(), p.f_byte)
        assertEquals(UInt.MAX_VALUE, p.f_uint32)
        assertEquals(ULong.MAX_VALUE, p.f_uint64)
        val json = Primitives.CODEC.toJson(p)
        check(json.contains("\"f_uint64\":18446744073709551615")) { json }
        val back = Primitives.CODEC.fromJson(json)
        assertEquals(ULong.MAX_VALUE, back.f_uint64)
        assertArrayEquals(FinalModel(Primitives.CODEC).serialize(p), FinalModel(Primitives.CODEC).serialize(back))
    }

    @Test
    fun malformedInputIsOneException() {
        assertThrows(DecodeException::class.java) { Model(Account.CODEC).deserialize(ByteArray(20) { if (it == 0) 20 else 0 }) }
        assertThrows(DecodeException::class.java) { Account.CODEC.fromJson("{\"uid\":null}") }
    }

    @Test
    fun proxyForwardsVerifiedBytes() {
        for (fin in listOf(false, true)) {
            val sender = ProtoSender(fin)
            val a = seed()
            sender.send(a)
            sender.send(a.orders[2])
            val stream = sender.buffer.toByteArray()
            val seen = mutableListOf<Int>()
            val out = java.io.ByteArrayOutputStream()
            val proxy = object : ProtoProxy(fin) {
                override fun onProxy(codec: Account.Codec, type: Int, buf: ByteArray, off: Int, len: Int) {
                    seen.add(type); out.write(buf, off, len)
                }
                override fun onProxy(codec: Order.Codec, type: Int, buf: ByteArray, off: Int, len: Int) {
                    seen.add(type); out.write(buf, off, len)
                }
            }
            proxy.receive(stream)
            assertEquals(listOf(Account.TYPE, Order.TYPE), seen)
            assertArrayEquals(stream, out.toByteArray())
            val bad = stream.copyOf()
            val at = String(stream, Charsets.ISO_8859_1).indexOf("EURUSD") - 4
            bad[at + 3] = 0x7F  // the first symbol's length: past the end
            val strict = object : ProtoProxy(fin) {}
            assertThrows(DecodeException::class.java) { strict.receive(bad) }
        }
    }
}
