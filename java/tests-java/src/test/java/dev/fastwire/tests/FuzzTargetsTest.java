package dev.fastwire.tests;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.fastwire.DecodeException;
import dev.fastwire.FinalModel;
import dev.fastwire.Model;
import dev.fastwire.StructCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Jazzer fuzz target for verify and deserialize (versioned, final) and the JSON reader,
 * over the seed account, every kind of generated type (everything.fbe) and the hostile
 * shapes. The first byte picks the type and the format. The contract checked: verify and
 * deserialize agree, malformed input raises only DecodeException, and an accepted input
 * re-serializes to bytes that verify and read back to the same bytes.
 *
 * <p>In make test it runs its seeds plus a bounded fuzzing run (JAZZER_FUZZ=1,
 * maxDuration); make fuzz-java runs it longer.
 */
class FuzzTargetsTest {
    static final List<StructCodec<?>> TYPES = List.of(
        com.chronoxor.proto.Account.CODEC, com.chronoxor.proto.Order.CODEC,
        com.example.fastwire.everything.Primitives.CODEC, com.example.fastwire.everything.Optionals.CODEC,
        com.example.fastwire.everything.Collections.CODEC, com.example.fastwire.everything.MoreDerived.CODEC,
        com.example.fastwire.everything.ExAccount.CODEC, hostile.Node.CODEC, hostile.Bag.CODEC);

    @FuzzTest(maxDuration = "20s")
    void verifyAndDeserialize(byte[] data) {
        if (data.length < 1) return;
        int pick = data[0] & 0xFF;
        @SuppressWarnings("unchecked")
        StructCodec<Object> codec = (StructCodec<Object>) TYPES.get((pick >> 2) % TYPES.size());
        byte[] input = Arrays.copyOfRange(data, 1, data.length);
        switch (pick & 3) {
            case 0: binary(codec, input, false); break;
            case 1: binary(codec, input, true); break;
            default: json(codec, input); break;
        }
    }

    static void binary(StructCodec<Object> codec, byte[] input, boolean fin) {
        Model<Object> m = new Model<>(codec);
        FinalModel<Object> f = new FinalModel<>(codec);
        String verifyError = null;
        try {
            if (fin) f.verify(input); else m.verify(input);
        } catch (DecodeException e) {
            verifyError = e.code();
        }
        Object value = null;
        try {
            value = fin ? f.deserialize(input) : m.deserialize(input);
        } catch (DecodeException e) {
            if (verifyError == null) throw new AssertionError("verify accepted, deserialize said " + e.code());
            return;
        }
        if (verifyError != null) throw new AssertionError("verify said " + verifyError + ", deserialize accepted");
        byte[] again = fin ? f.serialize(value) : m.serialize(value);
        if (fin) f.verify(again); else m.verify(again);
        Object back = fin ? f.deserialize(again) : m.deserialize(again);
        byte[] third = fin ? f.serialize(back) : m.serialize(back);
        if (!Arrays.equals(again, third)) throw new AssertionError("re-serialization differs");
        String text = codec.toJson(value);
        try {
            codec.fromJson(text);
        } catch (DecodeException e) {
            // Binary strings are bytes (UTF-8 is not validated); a byte that is not UTF-8 is
            // written to JSON as a lone surrogate escape, which the JSON reader rejects by the
            // shared rule (docs/wire-format.md#json). Anything else must read back.
            if (!(e.code().equals("invalid_argument") && e.getMessage().contains("lone surrogate"))) throw e;
        }
    }

    /** A string that is not UTF-8 on the wire: accepted in binary, its JSON not read back. */
    @org.junit.jupiter.api.Test
    void stringThatIsNotUtf8() {
        com.chronoxor.proto.Account a = new com.chronoxor.proto.Account();
        a.name = "ab";
        @SuppressWarnings("unchecked")
        StructCodec<Object> codec = (StructCodec<Object>) (StructCodec<?>) com.chronoxor.proto.Account.CODEC;
        for (boolean fin : new boolean[] {false, true}) {
            byte[] bytes = fin ? new FinalModel<Object>(codec).serialize(a) : new Model<Object>(codec).serialize(a);
            int at = -1;
            for (int i = 0; i + 1 < bytes.length; i++) {
                if (bytes[i] == 'a' && bytes[i + 1] == 'b') at = i + 1;
            }
            bytes[at] = (byte) 0xAB;
            binary(codec, bytes, fin);
        }
    }

    static void json(StructCodec<Object> codec, byte[] input) {
        Object value;
        try {
            value = codec.fromJson(input, dev.fastwire.Limits.DEFAULT);
        } catch (DecodeException e) {
            return;
        }
        String text = codec.toJson(value);
        Object back = codec.fromJson(text.getBytes(StandardCharsets.UTF_8), dev.fastwire.Limits.DEFAULT);
        if (!text.equals(codec.toJson(back))) throw new AssertionError("JSON does not read back: " + text);
    }
}
