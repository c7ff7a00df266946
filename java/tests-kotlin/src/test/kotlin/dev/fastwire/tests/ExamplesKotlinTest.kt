package dev.fastwire.tests

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path

/** examples/kotlin print what the C++ protocol example prints. */
class ExamplesKotlinTest {
    @Test
    fun protocolExamplePrintsTheSeedsLines() {
        val root = Path.of(System.getProperty("fastwire.root", "../..")).toAbsolutePath().normalize()
        val expected = Files.readString(root.resolve("examples/cpp/expected_protocol.txt"))
        val old = System.out
        val out = ByteArrayOutputStream()
        System.setOut(PrintStream(out, true, "UTF-8"))
        try {
            examples.ProtocolExample.main(arrayOf())
            examples.AccountExample.main(arrayOf())
        } finally {
            System.setOut(old)
        }
        val text = out.toString("UTF-8")
        assertEquals(expected.trim(), text.substringBefore("FBE size").trim())
    }
}
