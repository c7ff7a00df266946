// A corpus-mutation fuzzer of verify and deserialize (csharp/build.py fuzz SECONDS; make
// fuzz-csharp). No coverage-guided .NET fuzzer is reachable here (SharpFuzz needs NuGet
// and the .NET SDK), so this mutates a corpus at random: the binary inputs of the
// conformance cases (every type of everything.fbe, proto, hostile) and the golden vectors.
// Each mutant must satisfy the contract: verify accepts exactly what deserialize accepts;
// nothing but FastwireException is thrown; an accepted value re-serializes to bytes that
// verify and read back to the same bytes. A failing input is written to
// build/csharp/fuzz-findings/ and the run fails.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using Fastwire;

static class Fuzz
{
    sealed class Seed { public StructInfo Type; public bool Final; public byte[] Data; }

    static byte[] Hex(string s)
    {
        var digits = new string(s.Where(Uri.IsHexDigit).ToArray());
        var b = new byte[digits.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(digits.Substring(2 * i, 2), 16);
        return b;
    }

    static List<Seed> Corpus(string repo, Dictionary<string, StructInfo> types)
    {
        var seeds = new List<Seed>();
        var seen = new HashSet<string>();
        foreach (string suite in new[] { "golden", "roundtrip", "versioning", "malformed" })
        {
            var doc = JsonParser.Parse(File.ReadAllText(Path.Combine(repo, "conformance", "cases", suite + ".json")), new Limits { MaxDepth = 100 });
            foreach (var m in doc.Members.First(x => x.Key == "cases").Value.Items)
            {
                Func<string, JsonNode> get = k => m.Members.Where(x => x.Key == k).Select(x => x.Value).FirstOrDefault();
                StructInfo t;
                if (!types.TryGetValue(get("type").Text, out t)) continue;
                var input = get("input");
                Func<string, JsonNode> inp = k => input.Members.Where(x => x.Key == k).Select(x => x.Value).FirstOrDefault();
                string format = inp("format").Text;
                if (format == "json") continue;
                byte[] data;
                if (inp("hex") != null) data = Hex(inp("hex").Text);
                else if (inp("vector") != null && inp("patch") == null && inp("truncate") == null && inp("slice") == null)
                    data = Hex(File.ReadAllText(Path.Combine(repo, "tests", "vectors", inp("vector").Text)));
                else continue;
                string key = t.Name + format + BitConverter.ToString(data);
                if (seen.Add(key)) seeds.Add(new Seed { Type = t, Final = format == "final", Data = data });
            }
        }
        return seeds;
    }

    static byte[] Mutate(Random rnd, byte[] src)
    {
        var b = new List<byte>(src);
        int n = 1 + rnd.Next(4);
        for (int k = 0; k < n; k++)
        {
            if (b.Count == 0) { b.Add((byte)rnd.Next(256)); continue; }
            int at = rnd.Next(b.Count);
            switch (rnd.Next(8))
            {
                case 0: b[at] ^= (byte)(1 << rnd.Next(8)); break;
                case 1: b[at] = (byte)rnd.Next(256); break;
                case 2: b[at] = new byte[] { 0, 1, 0x7F, 0x80, 0xFF }[rnd.Next(5)]; break;
                case 3: b.RemoveRange(at, Math.Min(b.Count - at, 1 + rnd.Next(8))); break;
                case 4: b.InsertRange(at, Enumerable.Range(0, 1 + rnd.Next(8)).Select(_ => (byte)rnd.Next(256))); break;
                case 5: // a 32-bit word: small, large or the size of the data
                    if (at + 4 <= b.Count)
                    {
                        uint w = new uint[] { 0, 1, 4, 8, 0x7FFFFFFF, 0xFFFFFFFF, (uint)b.Count, (uint)rnd.Next(64) }[rnd.Next(8)];
                        for (int i = 0; i < 4; i++) b[at + i] = (byte)(w >> (8 * i));
                    }
                    break;
                case 6: b.RemoveRange(at, b.Count - at); break; // truncate
                default: // copy a chunk elsewhere
                    {
                        int from = rnd.Next(b.Count), len = Math.Min(b.Count - from, 1 + rnd.Next(16));
                        var chunk = b.GetRange(from, len);
                        int to = rnd.Next(b.Count);
                        for (int i = 0; i < len && to + i < b.Count; i++) b[to + i] = chunk[i];
                        break;
                    }
            }
        }
        if (b.Count >= 4 && rnd.Next(2) == 0) { uint size = (uint)b.Count; for (int i = 0; i < 4; i++) b[i] = (byte)(size >> (8 * i)); }
        return b.ToArray();
    }

    static string Check(Seed s, byte[] data)
    {
        bool ok;
        try { s.Type.VerifyBytes(data, s.Final, Limits.Default); ok = true; }
        catch (FastwireException) { ok = false; }
        object value;
        try { value = s.Type.DeserializeObject(data, s.Final, Limits.Default); }
        catch (FastwireException e) { return ok ? "verify accepted, deserialize rejected: " + e.Message : null; }
        if (!ok) return "verify rejected, deserialize accepted";
        byte[] again = s.Type.SerializeObject(value, s.Final);
        try { s.Type.VerifyBytes(again, s.Final, Limits.Default); }
        catch (FastwireException e) { return "re-serialized bytes do not verify: " + e.Message; }
        byte[] third = s.Type.SerializeObject(s.Type.DeserializeObject(again, s.Final, Limits.Default), s.Final);
        if (!third.SequenceEqual(again)) return "re-serializing is not stable";
        return null;
    }

    static int Main(string[] args)
    {
        double seconds = args.Length > 0 ? double.Parse(args[0]) : 10;
        string repo = args.Length > 1 ? args[1] : ".";
        int seed = args.Length > 2 ? int.Parse(args[2]) : Environment.TickCount;
        var types = Assembly.GetExecutingAssembly().GetTypes().Where(t => t.Name == "FbePackage")
            .SelectMany(t => (StructInfo[])t.GetProperty("Structs").GetValue(null, null)).ToDictionary(s => s.Name);
        var corpus = Corpus(repo, types);
        var rnd = new Random(seed);
        var sw = Stopwatch.StartNew();
        long runs = 0, accepted = 0;
        while (sw.Elapsed.TotalSeconds < seconds)
        {
            for (int k = 0; k < 200; k++, runs++)
            {
                var s = corpus[rnd.Next(corpus.Count)];
                byte[] data = Mutate(rnd, s.Data);
                string failure;
                try { failure = Check(s, data); }
                catch (Exception e) { failure = e.GetType().Name + ": " + e.Message; }
                if (failure == null)
                {
                    try { s.Type.VerifyBytes(data, s.Final, Limits.Default); accepted++; } catch (FastwireException) { }
                    continue;
                }
                string dir = Path.Combine(repo, "build", "csharp", "fuzz-findings");
                Directory.CreateDirectory(dir);
                string file = Path.Combine(dir, s.Type.Name + (s.Final ? ".final." : ".versioned.") + runs + ".bin");
                File.WriteAllBytes(file, data);
                Console.WriteLine("FAILED (seed " + seed + "): " + s.Type.Name + (s.Final ? " final" : " versioned") + ": " + failure + "; input in " + file);
                return 1;
            }
        }
        Console.WriteLine("csharp fuzz: " + runs + " mutants of " + corpus.Count + " inputs in " + seconds + " s (seed " + seed + "), " + accepted + " accepted, every one by the contract");
        return 0;
    }
}
