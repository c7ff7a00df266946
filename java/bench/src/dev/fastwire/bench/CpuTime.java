package dev.fastwire.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The AccountBench operations timed by the thread's CPU clock instead of the wall clock:
 * on a shared, loaded machine the time a thread waits for a core does not count. Prints
 * "name median-ns-per-op" for each operation: 25 samples of 200,000 calls after a warm-up
 * of 3 seconds of CPU per operation. JMH (AccountBench) stays the standard figure.
 *
 *     java -cp CLASSPATH dev.fastwire.bench.CpuTime [name ...]
 */
public final class CpuTime {
    interface Op {
        Object run();
    }

    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        AccountBench b = new AccountBench();
        b.setup();
        String[] names = {"serializeVersioned", "serializeFinal", "deserializeVersioned", "deserializeFinal",
                          "verifyVersioned", "verifyFinal"};
        Op[] ops = {b::serializeVersioned, b::serializeFinal, b::deserializeVersioned, b::deserializeFinal,
                    b::verifyVersioned, b::verifyFinal};
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int batch = 200_000;
        for (int k = 0; k < ops.length; k++) {
            if (args.length > 0 && !Arrays.asList(args).contains(names[k])) continue;
            Op op = ops[k];
            long until = mx.getCurrentThreadCpuTime() + 3_000_000_000L;
            while (mx.getCurrentThreadCpuTime() < until) {
                for (int i = 0; i < 10_000; i++) sink = op.run();
            }
            double[] s = new double[25];
            for (int j = 0; j < s.length; j++) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < batch; i++) sink = op.run();
                s[j] = (mx.getCurrentThreadCpuTime() - t0) / (double) batch;
            }
            Arrays.sort(s);
            System.out.printf("%s %.1f%n", names[k], s[s.length / 2]);
        }
    }
}
