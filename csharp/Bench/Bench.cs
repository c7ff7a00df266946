// The seed account benchmark (csharp/build.py bench, make bench-csharp): serialize,
// deserialize and verify in both formats, and JSON both ways. No benchmark library is
// available on Mono without NuGet (BenchmarkDotNet needs it), so this is a Stopwatch
// harness: warm-up, then R runs of N calls each; it reports the median wall-clock ns per
// call (and the minimum and maximum run) of each operation, and the median CPU ns per call
// of this thread (the figure to compare on a loaded machine).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Runtime.InteropServices;
using Fastwire;
using proto = com.chronoxor.proto;

static class Bench
{
    // The calling thread's CPU time in ns: clock_gettime(CLOCK_THREAD_CPUTIME_ID) where libc
    // has it (Linux), with nanosecond resolution; otherwise the process's TotalProcessorTime
    // (10 ms ticks on Linux: coarse, and it counts the runtime's other threads too).
    [StructLayout(LayoutKind.Sequential)]
    struct TimeSpec { public long Sec; public long Nsec; }

    [DllImport("libc", EntryPoint = "clock_gettime")]
    static extern int ClockGetTime(int clock, out TimeSpec ts);

    static bool threadClock = true;

    static double CpuNs(Process proc)
    {
        if (threadClock)
        {
            try
            {
                TimeSpec ts;
                if (ClockGetTime(3 /* CLOCK_THREAD_CPUTIME_ID */, out ts) == 0) return ts.Sec * 1e9 + ts.Nsec;
            }
            catch (Exception) { }
            threadClock = false;
        }
        proc.Refresh();
        return proc.TotalProcessorTime.Ticks * 100.0;
    }

    // Wall-clock ns per call of each run, sorted; cpu: the process's CPU ns per call, same order of runs.
    static double[] Runs(Action op, int n, int runs, out double cpuMedian)
    {
        for (int i = 0; i < n; i++) op(); // warm-up
        var ns = new double[runs];
        var cpu = new double[runs];
        var sw = new Stopwatch();
        var proc = Process.GetCurrentProcess();
        for (int r = 0; r < runs; r++)
        {
            double c0 = CpuNs(proc);
            sw.Restart();
            for (int i = 0; i < n; i++) op();
            sw.Stop();
            cpu[r] = (CpuNs(proc) - c0) / n;
            ns[r] = sw.Elapsed.TotalMilliseconds * 1e6 / n;
        }
        Array.Sort(ns);
        Array.Sort(cpu);
        cpuMedian = cpu[runs / 2];
        return ns;
    }

    static int Main(string[] args)
    {
        int n = args.Length > 0 ? int.Parse(args[0]) : 200000;
        int runs = args.Length > 1 ? int.Parse(args[1]) : 15;
        string only = args.Length > 2 ? args[2] : null; // run only the operations whose name has this
        var codec = proto.Fbe.Account.Instance;
        var model = codec.Model;
        var final = codec.FinalModel;
        var account = TransportSeed.Account();
        var w = new WriteBuffer(1024);
        byte[] v = model.Serialize(account), f = final.Serialize(account);
        string json = codec.ToJson(account);
        if (v.Length != 252 || f.Length != 152) throw new Exception("unexpected sizes " + v.Length + " " + f.Length);
        var ops = new List<KeyValuePair<string, Action>> {
            new KeyValuePair<string, Action>("(harness: an empty call)", () => { }),
            new KeyValuePair<string, Action>("serialize (versioned)", () => model.Serialize(account, w)),
            new KeyValuePair<string, Action>("serialize (final)", () => final.Serialize(account, w)),
            new KeyValuePair<string, Action>("deserialize (versioned)", () => model.Deserialize(v)),
            new KeyValuePair<string, Action>("deserialize (final)", () => final.Deserialize(f)),
            new KeyValuePair<string, Action>("deserialize, no string pool (versioned)", () => { Utf8.Pooling = false; model.Deserialize(v); Utf8.Pooling = true; }),
            new KeyValuePair<string, Action>("deserialize, no string pool (final)", () => { Utf8.Pooling = false; final.Deserialize(f); Utf8.Pooling = true; }),
            new KeyValuePair<string, Action>("verify (versioned)", () => model.Verify(v)),
            new KeyValuePair<string, Action>("verify (final)", () => final.Verify(f)),
            new KeyValuePair<string, Action>("to JSON", () => codec.ToJson(account)),
            new KeyValuePair<string, Action>("from JSON", () => codec.FromJson(json)),
        };
        Console.WriteLine("fastwire C# on Mono, seed account: " + v.Length + " bytes versioned, " + f.Length + " final, " + json.Length + " JSON");
        Console.WriteLine(string.Format("{0,-40} {1,10} {2,10} {3,10} {4,12}", "operation", "median ns", "min", "max", "CPU ns (med)"));
        foreach (var op in ops)
        {
            if (only != null && !op.Key.Contains(only)) continue;
            int count = op.Key.Contains("JSON") ? n / 10 : n;
            double cpu;
            double[] ns = Runs(op.Value, count, runs, out cpu);
            Console.WriteLine(string.Format("{0,-40} {1,10:F1} {2,10:F1} {3,10:F1} {4,12:F1}", op.Key, ns[runs / 2], ns[0], ns[runs - 1], cpu));
        }
        return 0;
    }
}

static class TransportSeed
{
    public static proto.Account Account()
    {
        var a = new proto.Account { uid = 1, name = "Test", state = proto.State.initialized | proto.State.calculated };
        a.wallet = new proto.Balance { currency = "USD", amount = 1000.0 };
        a.asset = new proto.Balance { currency = "EUR", amount = 100.0 };
        a.orders.Add(new proto.Order { uid = 1, symbol = "EURUSD", side = proto.OrderSide.buy, type = proto.OrderType.market, price = 1.23456, volume = 1000.0 });
        a.orders.Add(new proto.Order { uid = 2, symbol = "EURUSD", side = proto.OrderSide.sell, type = proto.OrderType.limit, price = 1.0, volume = 100.0 });
        a.orders.Add(new proto.Order { uid = 3, symbol = "EURUSD", side = proto.OrderSide.buy, type = proto.OrderType.stop, price = 1.5, volume = 10.0 });
        return a;
    }
}
