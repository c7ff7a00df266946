package dev.fastwire.tests

import com.chronoxor.proto.Account
import com.chronoxor.proto.Balance
import com.chronoxor.proto.Order
import dev.fastwire.DecodeException
import dev.fastwire.FinalModel
import dev.fastwire.Model
import dev.fastwire.StructCodec
import dev.fastwire.Unchecked
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.fail
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/**
 * The Kotlin classes' verify and deserialize (their fast walks load through
 * dev.fastwire.Unchecked, whose bounds the tests assert with -ea) on every truncation and
 * single-byte change of the seed vectors, in both formats: both accept, or both throw
 * DecodeException with the same code, and nothing else. Surefire runs it twice: with
 * Unsafe loads and with -Dfastwire.unsafe=false (the VarHandle fallback).
 */
class KotlinMutationTest {
    private val root: Path = Path.of(System.getProperty("fastwire.root", "../..")).toAbsolutePath().normalize()

    private fun hex(name: String): ByteArray {
        val digits = Files.readString(root.resolve("tests/vectors/$name")).replace(Regex("[^0-9a-fA-F]"), "")
        return ByteArray(digits.length / 2) { digits.substring(2 * it, 2 * it + 2).toInt(16).toByte() }
    }

    private fun code(f: () -> Any?): String? = try {
        f()
        null
    } catch (e: DecodeException) {
        e.code()
    }

    private fun <T> sweep(name: String, codec: StructCodec<T>) {
        val m = Model(codec)
        val f = FinalModel(codec)
        val kinds = listOf<(Int) -> Int>(
            { 0 }, { 0xFF }, { it xor 1 }, { it xor 0x80 }, { (it + 1) and 0xFF },
            { (it - 1) and 0xFF }, { 0x7F }
        )
        for ((suffix, final) in listOf(".fbe.hex" to false, ".final.hex" to true)) {
            val v = hex(name + suffix)
            val inputs = ArrayList<Pair<String, ByteArray>>()
            for (n in 0 until v.size) inputs.add("cut at $n" to v.copyOf(n))
            for (p in v.indices) for (k in kinds) inputs.add("byte $p" to v.clone().also { it[p] = k(v[p].toInt() and 0xFF).toByte() })
            for ((what, b) in inputs) {
                val label = "$name$suffix $what"
                val verify = try {
                    code { if (final) f.verify(b) else m.verify(b) }
                } catch (e: Throwable) {
                    fail<Nothing>("$label: verify threw $e")
                }
                var value: T? = null
                val read = try {
                    code { val t = if (final) f.deserialize(b) else m.deserialize(b); value = t; t }
                } catch (e: Throwable) {
                    fail<Nothing>("$label: deserialize threw $e")
                }
                assertEquals(verify, read, label)
                val x = value ?: continue
                val into = m.deserialize(hex("$name.fbe.hex"))
                val reused = if (final) f.deserialize(b, 0, b.size, into) else m.deserialize(b, 0, b.size, into)
                val write = { t: T -> if (final) f.serialize(t) else m.serialize(t) }
                assertArrayEquals(write(x), write(reused), label)
            }
        }
    }

    @Test
    fun loadsAreUncheckedUnlessDisabled() {
        assertEquals(System.getProperty("fastwire.unsafe") != "false", Unchecked.ENABLED)
    }

    @Test
    fun account() = sweep("account", Account.CODEC)

    @Test
    fun order() = sweep("order", Order.CODEC)

    @Test
    fun balance() = sweep("balance", Balance.CODEC)
}
