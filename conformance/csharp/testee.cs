// The C# conformance testee: answers the runner's requests on stdin/stdout
// (conformance/README.md). Built with the code generated for the conformance schemas by
// conformance/csharp/build.py; finds the structs through each package's FbePackage.
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Text;
using Fastwire;

static class Testee
{
    const byte OK = 0, PARSE_ERROR = 1, VERIFY_ERROR = 2, SERIALIZE_ERROR = 3, UNSUPPORTED = 4, INTERNAL_ERROR = 5;

    static readonly Dictionary<string, StructInfo> Types = new Dictionary<string, StructInfo>();

    static void Load()
    {
        foreach (var t in Assembly.GetExecutingAssembly().GetTypes())
        {
            if (t.Name != "FbePackage") continue;
            var structs = (StructInfo[])t.GetProperty("Structs").GetValue(null, null);
            foreach (var s in structs) Types[s.Name] = s;
        }
    }

    static byte[] Text(string s) { return Encoding.UTF8.GetBytes(s); }

    static byte Handle(byte[] req, out byte[] answer)
    {
        byte version = req[0], fin = req[1], fout = req[2];
        int nameLen = req[3] | req[4] << 8;
        if (version != 1) { answer = Text("protocol version " + version); return UNSUPPORTED; }
        string name = Encoding.UTF8.GetString(req, 5, nameLen);
        var payload = new byte[req.Length - 5 - nameLen];
        Buffer.BlockCopy(req, 5 + nameLen, payload, 0, payload.Length);
        StructInfo info;
        if (!Types.TryGetValue(name, out info)) { answer = Text("unknown type " + name); return UNSUPPORTED; }
        object value;
        try
        {
            if (fin == 3) value = info.ObjectFromJson(payload, Limits.Default);
            else if (fin == 1 || fin == 2)
            {
                try { info.VerifyBytes(payload, fin == 2, Limits.Default); }
                catch (FastwireException e) { answer = Text(e.Message); return VERIFY_ERROR; }
                value = info.DeserializeObject(payload, fin == 2, Limits.Default);
            }
            else { answer = Text("input format " + fin); return UNSUPPORTED; }
        }
        catch (FastwireException e) { answer = Text(e.Message); return PARSE_ERROR; }
        try
        {
            if (fout == 1) { answer = info.SerializeObject(value, false); return OK; }
            if (fout == 2) { answer = info.SerializeObject(value, true); return OK; }
            if (fout == 3) { answer = Text(info.ObjectToJson(value)); return OK; }
        }
        catch (FastwireException e) { answer = Text(e.Message); return SERIALIZE_ERROR; }
        answer = Text("output format " + fout);
        return UNSUPPORTED;
    }

    static bool ReadFull(Stream s, byte[] buf, int n)
    {
        int got = 0;
        while (got < n)
        {
            int k = s.Read(buf, got, n - got);
            if (k <= 0) return false;
            got += k;
        }
        return true;
    }

    static int Main()
    {
        Load();
        var stdin = Console.OpenStandardInput();
        var stdout = Console.OpenStandardOutput();
        var head = new byte[4];
        while (ReadFull(stdin, head, 4))
        {
            int size = BitConverter.ToInt32(head, 0);
            var req = new byte[size];
            if (!ReadFull(stdin, req, size)) return 0;
            byte status;
            byte[] answer;
            try { status = Handle(req, out answer); }
            catch (Exception e) { status = INTERNAL_ERROR; answer = Text(e.GetType().Name + ": " + e.Message); }
            var outb = new byte[5 + answer.Length];
            BitConverter.GetBytes(1 + answer.Length).CopyTo(outb, 0);
            outb[4] = status;
            Buffer.BlockCopy(answer, 0, outb, 5, answer.Length);
            stdout.Write(outb, 0, outb.Length);
            stdout.Flush();
        }
        return 0;
    }
}
