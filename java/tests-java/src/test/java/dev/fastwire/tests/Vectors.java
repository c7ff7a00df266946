package dev.fastwire.tests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The golden vectors of tests/vectors (hex dumps the FBE reference wrote). */
final class Vectors {
    private Vectors() {
    }

    static Path root() {
        String r = System.getProperty("fastwire.root", System.getenv().getOrDefault("FASTWIRE_ROOT", "../.."));
        return Path.of(r).toAbsolutePath().normalize();
    }

    static byte[] hex(String name) {
        try {
            String text = Files.readString(root().resolve("tests/vectors").resolve(name));
            String digits = text.replaceAll("[^0-9a-fA-F]", "");
            byte[] out = new byte[digits.length() / 2];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) Integer.parseInt(digits.substring(2 * i, 2 * i + 2), 16);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String name) {
        try {
            return Files.readString(root().resolve("tests/vectors").resolve(name)).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
