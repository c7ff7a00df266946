package dev.fastwire.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** examples/java print what the C++ examples print (examples/cpp/expected_*.txt). */
class ExamplesTest {
    static String run(Runnable main) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            main.run();
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void protocolExamplePrintsTheSeedsLines() throws Exception {
        String expected = Files.readString(Vectors.root().resolve("examples/cpp/expected_protocol.txt"));
        assertEquals(expected.strip(), run(() -> examples.ProtocolExample.main(new String[0])).strip());
    }

    @Test
    void accountExampleRoundTrips() {
        String out = run(() -> examples.AccountExample.main(new String[0]));
        assertTrue(out.startsWith("FBE size: 252\nFBE final size: 152\nAccount(uid=1,name=\"Test\""), out);
        assertTrue(out.contains(Vectors.text("account.json")), out);
    }
}
