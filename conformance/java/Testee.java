package dev.fastwire.conformance;

import dev.fastwire.DecodeException;
import dev.fastwire.EncodeException;
import dev.fastwire.FinalModel;
import dev.fastwire.Model;
import dev.fastwire.StructCodec;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The JVM conformance testee (conformance/README.md): answers the runner's requests on
 * stdin/stdout with the generated code of the conformance schemas, Java or Kotlin alike.
 *
 *     java -cp ... dev.fastwire.conformance.Testee PACKAGES_FILE
 *
 * PACKAGES_FILE lists the generated `<Package>Schema` classes, one a line.
 */
public final class Testee {
    static final int VERSIONED = 1, FINAL = 2, JSON = 3;
    static final int OK = 0, PARSE_ERROR = 1, VERIFY_ERROR = 2, SERIALIZE_ERROR = 3, UNSUPPORTED = 4, INTERNAL = 5;

    static final class Entry {
        final StructCodec<Object> codec;
        final Model<Object> model;
        final FinalModel<Object> finalModel;

        Entry(StructCodec<Object> codec) {
            this.codec = codec;
            this.model = new Model<>(codec);
            this.finalModel = new FinalModel<>(codec);
        }
    }

    final Map<String, Entry> types = new HashMap<>();

    @SuppressWarnings("unchecked")
    Testee(Path packages) throws Exception {
        for (String line : Files.readAllLines(packages)) {
            String name = line.trim();
            if (name.isEmpty()) continue;
            Class<?> cls = Class.forName(name);
            String pkg = (String) cls.getField("PACKAGE").get(null);
            Map<String, StructCodec<?>> structs = (Map<String, StructCodec<?>>) cls.getField("STRUCTS").get(null);
            for (Map.Entry<String, StructCodec<?>> e : structs.entrySet()) {
                types.put(pkg + "." + e.getKey(), new Entry((StructCodec<Object>) e.getValue()));
            }
        }
    }

    private int status;

    byte[] handle(byte[] req) {
        int version = req[0] & 0xFF;
        int in = req[1] & 0xFF;
        int out = req[2] & 0xFF;
        int nameLen = (req[3] & 0xFF) | ((req[4] & 0xFF) << 8);
        if (version != 1) return answer(UNSUPPORTED, "protocol version " + version);
        String name = new String(req, 5, nameLen, StandardCharsets.UTF_8);
        int start = 5 + nameLen;
        int len = req.length - start;
        Entry e = types.get(name);
        if (e == null) return answer(UNSUPPORTED, "unknown type " + name);
        Object value;
        try {
            if (in == JSON) {
                value = e.codec.fromJson(java.util.Arrays.copyOfRange(req, start, req.length), dev.fastwire.Limits.DEFAULT);
            } else if (in == VERSIONED || in == FINAL) {
                try {
                    if (in == VERSIONED) e.model.verify(req, start, len); else e.finalModel.verify(req, start, len);
                } catch (DecodeException err) {
                    return answer(VERIFY_ERROR, err.getMessage());
                }
                value = in == VERSIONED ? e.model.deserialize(req, start, len, null) : e.finalModel.deserialize(req, start, len, null);
            } else {
                return answer(UNSUPPORTED, "input format " + in);
            }
        } catch (DecodeException err) {
            return answer(PARSE_ERROR, err.getMessage());
        }
        try {
            switch (out) {
                case VERSIONED: status = OK; return e.model.serialize(value);
                case FINAL: status = OK; return e.finalModel.serialize(value);
                case JSON: status = OK; return e.codec.toJson(value).getBytes(StandardCharsets.UTF_8);
                default: return answer(UNSUPPORTED, "output format " + out);
            }
        } catch (EncodeException err) {
            return answer(SERIALIZE_ERROR, err.getMessage());
        }
    }

    private byte[] answer(int code, String message) {
        status = code;
        return (message == null ? "" : message).getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: Testee PACKAGES_FILE");
            System.exit(2);
        }
        Testee t = new Testee(Path.of(args[0]));
        DataInputStream stdin = new DataInputStream(System.in);
        OutputStream stdout = new BufferedOutputStream(System.out, 1 << 16);
        byte[] head = new byte[4];
        while (true) {
            try {
                stdin.readFully(head);
            } catch (EOFException eof) {
                break;
            }
            int size = (head[0] & 0xFF) | ((head[1] & 0xFF) << 8) | ((head[2] & 0xFF) << 16) | ((head[3] & 0xFF) << 24);
            byte[] req = new byte[size];
            stdin.readFully(req);
            byte[] payload;
            try {
                payload = t.handle(req);
            } catch (StackOverflowError | RuntimeException err) {
                t.status = INTERNAL;
                payload = (err.getClass().getName() + ": " + err.getMessage()).getBytes(StandardCharsets.UTF_8);
                err.printStackTrace();
            }
            int n = payload.length + 1;
            stdout.write(new byte[] {(byte) n, (byte) (n >> 8), (byte) (n >> 16), (byte) (n >> 24), (byte) t.status});
            stdout.write(payload);
            stdout.flush();
        }
    }

}
