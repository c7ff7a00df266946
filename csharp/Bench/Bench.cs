// The seed account benchmark (csharp/build.py bench, make bench-csharp): serialize,
// deserialize and verify in both formats, and JSON both ways. No benchmark library is
// available on Mono without NuGet (BenchmarkDotNet needs it), so this is a Stopwatch
// harness: a warm-up, then R rounds; each round runs every operation once for N calls (the
// operations interleaved, so a slow spell of the machine falls on all of them alike). Per
// operation it reports the median wall-clock ns per call of the rounds (with the fastest and
// slowest round), the median CPU ns per call of this thread (the figure to compare on a
// loaded machine) and the clock the CPU ran at during the round, estimated from a fixed
// chain of dependent multiply-adds timed right before and after it (4 cycles per step:
// a 3-cycle imul and a 1-cycle add on current x86-64 cores). On this VM the host changes
// the clock for spells of 0.1 to several seconds (3.6 GHz or about 2.4 GHz); the cycles
// column (CPU ns x clock) does not move with it. csharp/build.py bench runs several
// processes and takes the median across them; the lines starting with "row" are for it.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.CompilerServices;
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
    static readonly Process proc = Process.GetCurrentProcess();

    static double CpuNs()
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

    const int SpinSteps = 100000;
    static ulong spinSink;

    // A chain of SpinSteps dependent multiply-adds (4 cycles each); returns its CPU ns.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static double Spin()
    {
        double c0 = CpuNs();
        ulong x = spinSink | 1;
        for (int i = 0; i < SpinSteps; i++) x = x * 6364136223846793005UL + (ulong)i;
        double c1 = CpuNs();
        spinSink = x;
        return c1 - c0;
    }

    sealed class Op
    {
        public string Name;
        public Action Run;
        public int Count;
        public readonly List<double> Wall = new List<double>(), Cpu = new List<double>(), Ghz = new List<double>();
    }

    static double Median(List<double> xs)
    {
        var a = xs.ToArray();
        Array.Sort(a);
        return a.Length == 0 ? double.NaN : a.Length % 2 == 1 ? a[a.Length / 2] : (a[a.Length / 2 - 1] + a[a.Length / 2]) / 2;
    }

    static void Round(Op op, Stopwatch sw)
    {
        int n = op.Count;
        Action run = op.Run;
        double s0 = Spin();
        double c0 = CpuNs();
        sw.Restart();
        for (int i = 0; i < n; i++) run();
        sw.Stop();
        double c1 = CpuNs();
        double s1 = Spin();
        op.Cpu.Add((c1 - c0) / n);
        op.Wall.Add(sw.Elapsed.TotalMilliseconds * 1e6 / n);
        op.Ghz.Add(4.0 * SpinSteps / Math.Max(Math.Min(s0, s1), 1)); // the faster of the two: a spin cut by the scheduler reads slow
    }

    static int Main(string[] args)
    {
        int n = args.Length > 0 ? int.Parse(args[0]) : 200000;
        int runs = args.Length > 1 ? int.Parse(args[1]) : 15;
        // Run only the operations whose name has this (^text: whose name starts with text).
        string only = args.Length > 2 ? args[2] : null;
        var codec = proto.Fbe.Account.Instance;
        var model = codec.Model;
        var final = codec.FinalModel;
        var account = TransportSeed.Account();
        var w = new WriteBuffer(1024);
        byte[] v = model.Serialize(account), f = final.Serialize(account);
        string json = codec.ToJson(account);
        if (v.Length != 252 || f.Length != 152) throw new Exception("unexpected sizes " + v.Length + " " + f.Length);
        var all = new List<KeyValuePair<string, Action>> {
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
        var ops = new List<Op>();
        foreach (var kv in all)
            if (only == null || (only.StartsWith("^") ? kv.Key.StartsWith(only.Substring(1)) : kv.Key.Contains(only)))
                ops.Add(new Op { Name = kv.Key, Run = kv.Value, Count = kv.Key.Contains("JSON") ? Math.Max(1, n / 10) : n });
        var sw = new Stopwatch();
        foreach (var op in ops) for (int i = 0; i < op.Count; i++) op.Run(); // warm-up
        for (int r = 0; r < runs; r++)
            foreach (var op in ops) Round(op, sw);
        Console.WriteLine("fastwire C# on Mono, seed account: " + v.Length + " bytes versioned, " + f.Length + " final, " + json.Length + " JSON; " + runs + " rounds");
        Console.WriteLine(string.Format("{0,-40} {1,9} {2,9} {3,9} {4,9} {5,6} {6,8}", "operation", "wall ns", "min", "max", "CPU ns", "GHz", "cycles"));
        foreach (var op in ops)
        {
            double wall = Median(op.Wall), cpu = Median(op.Cpu), ghz = Median(op.Ghz);
            var cycles = new List<double>();
            for (int i = 0; i < op.Cpu.Count; i++) cycles.Add(op.Cpu[i] * op.Ghz[i]);
            double cyc = Median(cycles);
            op.Wall.Sort();
            Console.WriteLine(string.Format("{0,-40} {1,9:F1} {2,9:F1} {3,9:F1} {4,9:F1} {5,6:F2} {6,8:F0}", op.Name, wall, op.Wall[0], op.Wall[op.Wall.Count - 1], cpu, ghz, cyc));
        }
        foreach (var op in ops)
        {
            var cycles = new List<double>();
            for (int i = 0; i < op.Cpu.Count; i++) cycles.Add(op.Cpu[i] * op.Ghz[i]);
            Console.WriteLine(string.Format(System.Globalization.CultureInfo.InvariantCulture, "row\t{0}\t{1:F2}\t{2:F2}\t{3:F3}\t{4:F1}", op.Name, Median(op.Cpu), Median(op.Wall), Median(op.Ghz), Median(cycles)));
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
