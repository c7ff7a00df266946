package dev.fastwire.bench;

import dev.fastwire.FinalModel;
import dev.fastwire.Limits;
import dev.fastwire.Model;
import dev.fastwire.Reader;
import dev.fastwire.StructCodec;
import dev.fastwire.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The seed account (tests/vectors/account.*) serialized, deserialized (into a reused
 * object) and verified in both formats, and as JSON, through the generated code of the
 * language this module is built with (java/bench-java: Java classes; java/bench-kotlin:
 * Kotlin data classes; the benchmark itself is the same source, driving StructCodec).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class AccountBench {
    StructCodec<Object> codec;
    Object account;
    Object reuse;
    byte[] versioned;
    byte[] fin;
    String json;
    final Writer writer = new Writer(1024);
    final Reader reader = new Reader();

    @SuppressWarnings("unchecked")
    @Setup
    public void setup() throws Exception {
        codec = (StructCodec<Object>) Class.forName("com.chronoxor.proto.Account").getField("CODEC").get(null);
        Path root = Path.of(System.getProperty("fastwire.root", ".")).resolve("tests/vectors");
        versioned = hex(Files.readString(root.resolve("account.fbe.hex")));
        fin = hex(Files.readString(root.resolve("account.final.hex")));
        json = Files.readString(root.resolve("account.json")).trim();
        account = new Model<>(codec).deserialize(versioned);
        reuse = codec.create();
        if (!java.util.Arrays.equals(versioned, new Model<>(codec).serialize(account))) throw new AssertionError("versioned");
        if (!java.util.Arrays.equals(fin, new FinalModel<>(codec).serialize(account))) throw new AssertionError("final");
        if (!json.equals(codec.toJson(account))) throw new AssertionError("json");
    }

    static byte[] hex(String text) {
        String d = text.replaceAll("[^0-9a-fA-F]", "");
        byte[] b = new byte[d.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(d.substring(2 * i, 2 * i + 2), 16);
        return b;
    }

    @Benchmark
    public int serializeVersioned() {
        writer.clear();
        return Model.write(writer, codec, account);
    }

    @Benchmark
    public int serializeFinal() {
        writer.clear();
        return FinalModel.write(writer, codec, account);
    }

    @Benchmark
    public Object deserializeVersioned() {
        return Model.read(reader, Limits.DEFAULT, codec, versioned, 0, versioned.length, reuse);
    }

    @Benchmark
    public Object deserializeFinal() {
        return FinalModel.read(reader, Limits.DEFAULT, codec, fin, 0, fin.length, reuse);
    }

    @Benchmark
    public int verifyVersioned() {
        return Model.check(reader, Limits.DEFAULT, codec, versioned, 0, versioned.length);
    }

    @Benchmark
    public int verifyFinal() {
        return FinalModel.check(reader, Limits.DEFAULT, codec, fin, 0, fin.length);
    }

    @Benchmark
    public String jsonWrite() {
        return codec.toJson(account);
    }

    @Benchmark
    public Object jsonRead() {
        return codec.fromJson(json);
    }
}
