// NUnit tests of the C# runtime and generated code: the golden vectors in both formats and
// JSON, versioning, every truncation and single-byte change of each vector, decimals,
// uuids, JSON numbers, and the protocol's Sender and Receiver.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using Fastwire;
using NUnit.Framework;
using proto = com.chronoxor.proto;
using protoex = com.chronoxor.protoex;
using protocol = com.chronoxor.protocol;

namespace Fastwire.Tests
{
    static class Vectors
    {
        public static string Root
        {
            get
            {
                string dir = AppDomain.CurrentDomain.BaseDirectory;
                while (dir != null && !File.Exists(Path.Combine(dir, "tests", "vectors", "account.fbe.hex")))
                    dir = Path.GetDirectoryName(dir);
                if (dir == null) dir = Environment.GetEnvironmentVariable("FASTWIRE_REPO") ?? ".";
                return Path.Combine(dir, "tests", "vectors");
            }
        }

        public static byte[] Hex(string name)
        {
            string text = File.ReadAllText(Path.Combine(Root, name));
            var digits = new string(text.Where(Uri.IsHexDigit).ToArray());
            var b = new byte[digits.Length / 2];
            for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(digits.Substring(2 * i, 2), 16);
            return b;
        }

        public static string Text(string name) { return File.ReadAllText(Path.Combine(Root, name)).Trim(); }
    }

    [TestFixture]
    public class GoldenTests
    {
        [Test]
        public void AccountVersioned()
        {
            byte[] data = Vectors.Hex("account.fbe.hex");
            Assert.AreEqual(252, data.Length);
            var model = proto.Fbe.Account.Instance.Model;
            Assert.IsTrue(model.Verify(data));
            proto.Account a = model.Deserialize(data);
            Assert.AreEqual(1, a.uid);
            Assert.AreEqual("Test", a.name);
            Assert.AreEqual(proto.State.initialized | proto.State.calculated, a.state);
            Assert.AreEqual("USD", a.wallet.currency);
            Assert.AreEqual(1000.0, a.wallet.amount);
            Assert.AreEqual("EUR", a.asset.currency);
            Assert.AreEqual(3, a.orders.Count);
            Assert.AreEqual(1.23456, a.orders[0].price);
            CollectionAssert.AreEqual(data, model.Serialize(a));
        }

        [Test]
        public void AllVectorsBothFormatsAndJson()
        {
            Check(proto.Fbe.Account.Instance, "account");
            Check(proto.Fbe.Order.Instance, "order");
            Check(proto.Fbe.Balance.Instance, "balance");
        }

        static void Check<T>(StructCodec<T> codec, string name) where T : class
        {
            byte[] v = Vectors.Hex(name + ".fbe.hex"), f = Vectors.Hex(name + ".final.hex");
            string json = Vectors.Text(name + ".json");
            T a = codec.Model.Deserialize(v), b = codec.FinalModel.Deserialize(f), c = codec.FromJson(json);
            CollectionAssert.AreEqual(v, codec.Model.Serialize(a), name + " versioned");
            CollectionAssert.AreEqual(f, codec.FinalModel.Serialize(b), name + " final");
            CollectionAssert.AreEqual(v, codec.Model.Serialize(b), name + " final -> versioned");
            CollectionAssert.AreEqual(f, codec.FinalModel.Serialize(c), name + " json -> final");
            Assert.AreEqual(json, codec.ToJson(a), name + " json");
            Assert.AreEqual(a, b);
        }

        [Test]
        public void ReusedBufferSerializesWithoutGrowing()
        {
            var model = proto.Fbe.Account.Instance.Model;
            var a = model.Deserialize(Vectors.Hex("account.fbe.hex"));
            var w = new WriteBuffer(1024);
            byte[] before = w.Data;
            for (int i = 0; i < 100; i++) Assert.AreEqual(252, model.Serialize(a, w));
            Assert.AreSame(before, w.Data);
        }
    }

    [TestFixture]
    public class MalformedTests
    {
        static IEnumerable<object[]> Inputs()
        {
            yield return new object[] { "account", false };
            yield return new object[] { "account", true };
            yield return new object[] { "order", false };
            yield return new object[] { "order", true };
            yield return new object[] { "balance", false };
            yield return new object[] { "balance", true };
        }

        // verify and deserialize agree; an accepted input re-serializes to one that verifies.
        static void Agree<T>(StructCodec<T> codec, bool final, byte[] data) where T : class
        {
            bool ok = final ? codec.FinalModel.Verify(data) : codec.Model.Verify(data);
            T value = null;
            try { value = final ? codec.FinalModel.Deserialize(data) : codec.Model.Deserialize(data); }
            catch (FastwireException)
            {
                Assert.IsFalse(ok, "verify accepted what deserialize rejected");
                return;
            }
            Assert.IsTrue(ok, "deserialize accepted what verify rejected");
            byte[] again = final ? codec.FinalModel.Serialize(value) : codec.Model.Serialize(value);
            Assert.IsTrue(final ? codec.FinalModel.Verify(again) : codec.Model.Verify(again));
        }

        static void Each(string name, bool final, Action<byte[]> check)
        {
            byte[] data = Vectors.Hex(name + (final ? ".final.hex" : ".fbe.hex"));
            for (int n = 0; n < data.Length; n++)
            {
                var cut = new byte[n];
                Buffer.BlockCopy(data, 0, cut, 0, n);
                check(cut);
            }
            byte[] changes = { 0x00, 0x01, 0x7F, 0x80, 0xFF };
            for (int i = 0; i < data.Length; i++)
                foreach (byte x in changes.Concat(new[] { (byte)(data[i] ^ 0x01), (byte)(data[i] + 1) }))
                {
                    var copy = (byte[])data.Clone();
                    copy[i] = x;
                    check(copy);
                }
        }

        [Test, TestCaseSource("Inputs")]
        public void EveryTruncationAndByteChange(string name, bool final)
        {
            switch (name)
            {
                case "account": Each(name, final, d => Agree(proto.Fbe.Account.Instance, final, d)); break;
                case "order": Each(name, final, d => Agree(proto.Fbe.Order.Instance, final, d)); break;
                default: Each(name, final, d => Agree(proto.Fbe.Balance.Instance, final, d)); break;
            }
        }

        [Test]
        public void OffsetsThatWrapAreRejected()
        {
            // The reader adds offsets to their base in 32 bits: a sum past 2^32 wraps below
            // the base. Every word of the versioned account that could be an offset is set to
            // 2^32 - b + 4 for every base b, so that base + offset wraps to 4 (or lands far
            // past the end), and verify and deserialize must agree; at the real offset slots,
            // 2^32 - b + k for k = 0, 4 and 8 must be rejected.
            byte[] data = Vectors.Hex("account.fbe.hex");
            var codec = proto.Fbe.Account.Instance;
            int rejected = 0;
            for (int i = 0; i + 4 <= data.Length; i++)
            {
                uint was = Le.U32(data, i);
                if (was == 0 || was >= data.Length) continue;
                for (int b = 0; b < data.Length; b++)
                    foreach (int k in new[] { 4 })
                    {
                        if (b <= k) continue; // 2^32 - b + k would not fit 32 bits
                        var copy = (byte[])data.Clone();
                        Le.Put(copy, i, (uint)(0x100000000L - b + k));
                        Agree(codec, false, copy);
                        if (!codec.Model.Verify(copy)) rejected++;
                    }
            }
            Assert.Greater(rejected, 0);
            // The slots known to be offsets: the root's (at 4, base 0) and the account's name,
            // wallet, asset and orders (body at 8).
            foreach (int slot in new[] { 4, 8 + 12, 8 + 17, 8 + 22, 8 + 26 })
                for (int b = 0; b < data.Length; b++)
                    foreach (int k in new[] { 0, 4, 8 })
                    {
                        if (b <= k) continue; // 2^32 - b + k would not fit 32 bits
                        var copy = (byte[])data.Clone();
                        Le.Put(copy, slot, (uint)(0x100000000L - b + k));
                        Assert.IsFalse(codec.Model.Verify(copy), "slot " + slot + ", base " + b + ", k " + k);
                    }
        }

        [Test]
        public void TruncationsAreRejected()
        {
            foreach (bool final in new[] { false, true })
            {
                byte[] data = Vectors.Hex(final ? "account.final.hex" : "account.fbe.hex");
                for (int n = 0; n < data.Length; n++)
                {
                    var cut = new byte[n];
                    Buffer.BlockCopy(data, 0, cut, 0, n);
                    var codec = proto.Fbe.Account.Instance;
                    Assert.IsFalse(final ? codec.FinalModel.Verify(cut) : codec.Model.Verify(cut));
                    Assert.Throws<FastwireException>(() => { if (final) codec.FinalModel.Deserialize(cut); else codec.Model.Deserialize(cut); });
                }
            }
        }

        [Test]
        public void HugeCountIsRejectedAtOnce()
        {
            // A vector of 4 294 967 295 orders in a 20-odd byte message.
            var a = new proto.Account();
            byte[] data = proto.Fbe.Account.Instance.Model.Serialize(a);
            int orders = 8 + 8 + 4 + 4 + 1 + 4 + 5; // the orders slot in the body
            uint off = Le.U32(data, 8 + orders);
            Le.Put(data, 8 + (int)off, 0xFFFFFFFFu);
            var e = Assert.Throws<FastwireException>(() => proto.Fbe.Account.Instance.Model.Deserialize(data));
            Assert.AreEqual(ErrorCode.Truncated, e.Code);
        }

        [Test]
        public void DeepNestingIsTooDeep()
        {
            var root = new hostile.Node();
            var n = root;
            for (int i = 0; i < 100; i++) { var c = new hostile.Node(); n.children.Add(c); n = c; }
            byte[] v = hostile.Fbe.Node.Instance.Model.Serialize(root);
            byte[] f = hostile.Fbe.Node.Instance.FinalModel.Serialize(root);
            Assert.AreEqual(ErrorCode.TooDeep, Assert.Throws<FastwireException>(() => hostile.Fbe.Node.Instance.Model.Deserialize(v)).Code);
            Assert.AreEqual(ErrorCode.TooDeep, Assert.Throws<FastwireException>(() => hostile.Fbe.Node.Instance.FinalModel.Deserialize(f)).Code);
            var lim = new Limits { MaxDepth = 200 };
            Assert.IsNotNull(new Model<hostile.Node>(hostile.Fbe.Node.Instance, lim).Deserialize(v));
        }
    }

    [TestFixture]
    public class VersioningTests
    {
        [Test]
        public void NewReadsOldAndOldReadsNew()
        {
            byte[] old = Vectors.Hex("account.fbe.hex");
            protoex.Account ex = protoex.Fbe.Account.Instance.Model.Deserialize(old);
            Assert.AreEqual(1, ex.uid);
            Assert.AreEqual("Test", ex.name);
            Assert.AreEqual(3, ex.orders.Count);
            byte[] newer = protoex.Fbe.Account.Instance.Model.Serialize(ex);
            Assert.Greater(newer.Length, old.Length);
            proto.Account back = proto.Fbe.Account.Instance.Model.Deserialize(newer);
            CollectionAssert.AreEqual(old, proto.Fbe.Account.Instance.Model.Serialize(back));
        }

        [Test]
        public void FinalOfAnotherVersionIsRejected()
        {
            var ex = protoex.Fbe.Account.Instance.Model.Deserialize(Vectors.Hex("account.fbe.hex"));
            byte[] f = protoex.Fbe.Account.Instance.FinalModel.Serialize(ex);
            Assert.IsFalse(proto.Fbe.Account.Instance.FinalModel.Verify(f));
        }
    }

    [TestFixture]
    public class ValueTests
    {
        static decimal Round(decimal d)
        {
            var b = new byte[16];
            Decimals.Write(b, 0, d);
            return Decimals.Read(b, 0);
        }

        static void SameBits(decimal a, decimal b)
        {
            CollectionAssert.AreEqual(decimal.GetBits(a), decimal.GetBits(b));
        }

        [Test]
        public void DecimalsKeepEveryBit()
        {
            foreach (string s in new[] { "0", "1.50", "-0.00", "0.0000000000000000000000000001", "-0.0000000000000000000000000000",
                                          "79228162514264337593543950335", "-79228162514264337593543950335",
                                          "9999999999999999999999999999", "7.9228162514264337593543950335", "123456.123456" })
            {
                decimal d = Decimals.Parse(s);
                Assert.AreEqual(s, Decimals.Text(d), "text of " + s);
                SameBits(d, Round(d));
                Assert.AreEqual(s, Decimals.Text(Round(d)));
            }
        }

        [Test]
        public void DecimalNegativeZeroAndScaleOnTheWire()
        {
            var b = new byte[16];
            Decimals.Write(b, 0, Decimals.Parse("-0.00"));
            CollectionAssert.AreEqual(new byte[] { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0x80 }, b);
            Decimals.Write(b, 0, Decimals.Parse("0.0000000000000000000000000001"));
            Assert.AreEqual(28, b[14]);
            b[14] = 29;
            Assert.AreEqual(ErrorCode.BadValue, Assert.Throws<FastwireException>(() => Decimals.Read(b, 0)).Code);
        }

        [Test]
        public void DecimalTextRules()
        {
            Assert.AreEqual("1500", Decimals.Text(Decimals.Parse("1.5e3")));
            Assert.AreEqual("0", Decimals.Text(Decimals.Parse("0e999999999")));
            foreach (string bad in new[] { "1e999999999", "0.00000000000000000000000000000", "-0e-999999999",
                                           "1" + new string('0', 40) + "e-40", "79228162514264337593543950336", "1 ", "NaN", "" })
                Assert.Throws<FastwireException>(() => Decimals.Parse(bad), bad);
        }

        [Test]
        public void GuidWireOrderIsTheCanonicalText()
        {
            var g = new Guid("123e4567-e89b-12d3-a456-426655440000");
            byte[] wire = Uuid.ToBytes(g);
            CollectionAssert.AreEqual(new byte[] { 0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0x00, 0x00 }, wire);
            CollectionAssert.AreNotEqual(g.ToByteArray(), wire);
            Assert.AreEqual(g, Uuid.FromBytes(wire));
            Assert.Less(Uuid.Compare(new Guid("00000000-0000-0000-0000-0000000000ff"), new Guid("01000000-0000-0000-0000-000000000000")), 0);
            Assert.AreEqual(1, Uuid.NewTimeBased().ToString("D")[14] - '0');
        }

        [Test]
        public void DoublesAsEveryLanguageWritesThem()
        {
            var cases = new List<KeyValuePair<double, string>>();
            foreach (var kv0 in new object[,] {
                { 1000.0, "1000.0" }, { 1e20, "100000000000000000000.0" }, { 0.0, "0.0" }, { -0.0, "-0.0" },
                { 1.5, "1.5" }, { 123.456, "123.456" }, { 0.1, "0.1" }, { 0.00001, "0.00001" }, { 0.000001, "0.000001" },
                { 1e-7, "1e-7" }, { 1e21, "1e21" }, { -1.23456e125, "-1.23456e125" }, { 5e-324, "5e-324" },
                { 1.7976931348623157e308, "1.7976931348623157e308" }, { (double)123.456f, "123.45600128173828" },
                { (double)1.5e10f, "15000000512.0" }, { (double)float.MaxValue, "3.4028234663852886e38" },
                { (double)float.Epsilon, "1.401298464324817e-45" }, { 0.3, "0.3" }, { 2.0 / 3, "0.6666666666666666" },
            }.Cast<object>().Select((x, i) => new { x, i }).GroupBy(t => t.i / 2).Select(g => g.Select(t => t.x).ToArray()))
                cases.Add(new KeyValuePair<double, string>(Convert.ToDouble(kv0[0]), (string)kv0[1]));
            foreach (var kv in cases)
            {
                Assert.AreEqual(kv.Value, JsonText.DoubleText(kv.Key));
                Assert.AreEqual(BitConverter.DoubleToInt64Bits(kv.Key), BitConverter.DoubleToInt64Bits(JsonText.ParseDouble(kv.Value)), kv.Value);
            }
        }

        [Test]
        public void DoubleParsingIsCorrectlyRounded()
        {
            Assert.AreEqual(0.0, JsonText.ParseDouble("1e-999999"));
            Assert.AreEqual(9007199254740992.0, JsonText.ParseDouble("9007199254740993"));
            Assert.AreEqual(2.2250738585072014e-308, JsonText.ParseDouble("2.2250738585072014e-308"));
            Assert.AreEqual(1e300, JsonText.ParseDouble("1" + new string('0', 300)));
            foreach (string bad in new[] { "1e999999", "-1e400", "1.7976931348623159e308", "1" + new string('0', 400) })
                Assert.AreEqual(ErrorCode.OutOfRange, Assert.Throws<FastwireException>(() => JsonText.ParseDouble(bad)).Code);
            // a long number costs time linear in its length, and still rounds exactly
            var sw = System.Diagnostics.Stopwatch.StartNew();
            Assert.AreEqual(0.1, JsonText.ParseDouble("0.1" + new string('0', 200000) + "1"));
            Assert.AreEqual(1.0000000000000002, JsonText.ParseDouble("1.00000000000000011102230246251565404236316680908203125" + new string('0', 100000) + "1"));
            Assert.AreEqual(1.0, JsonText.ParseDouble("1.00000000000000011102230246251565404236316680908203125"));
            Assert.Less(sw.ElapsedMilliseconds, 2000);
            var rnd = new Random(7);
            var bytes = new byte[8];
            for (int i = 0; i < 20000; i++)
            {
                rnd.NextBytes(bytes);
                double x = BitConverter.ToDouble(bytes, 0);
                if (double.IsNaN(x) || double.IsInfinity(x)) continue;
                string t = JsonText.DoubleText(x);
                Assert.AreEqual(BitConverter.DoubleToInt64Bits(x), BitConverter.DoubleToInt64Bits(JsonText.ParseDouble(t)), t);
            }
        }

        [Test]
        public void StringsKeepBytesThatAreNotUtf8()
        {
            var bad = new byte[] { 0x41, 0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80 };
            string s = Utf8.Decode(bad, 0, bad.Length);
            CollectionAssert.AreEqual(bad, Utf8.GetBytes(s));
            Assert.IsTrue(s.EndsWith("\u20AC\U0001F600"));
        }

        [Test]
        public void StringsWrittenByEveryPath()
        {
            // The ASCII path (four characters per step, then one at a time) and the UTF-8 path,
            // the first non-ASCII character at every position: the same bytes as Utf8.GetBytes,
            // and the bytes past Size left zero (Append relies on it) after a failed ASCII pass.
            foreach (var model in new Func<proto.Order, WriteBuffer, int>[] {
                (o, w) => proto.Fbe.Order.Instance.Model.Serialize(o, w), (o, w) => proto.Fbe.Order.Instance.FinalModel.Serialize(o, w) })
                for (int len = 0; len <= 11; len++)
                    for (int at = -1; at < len; at++)
                    {
                        var chars = new char[len];
                        for (int i = 0; i < len; i++) chars[i] = (char)('a' + i);
                        if (at >= 0) chars[at] = at % 2 == 0 ? '\u00E9' : '\u20AC';
                        var order = new proto.Order { uid = 7, symbol = new string(chars), price = 1.5 };
                        var w = new WriteBuffer(16);
                        int size = model(order, w);
                        for (int i = size; i < w.Data.Length; i++) Assert.AreEqual(0, w.Data[i], "byte " + i + " past the message");
                        byte[] utf8 = Utf8.GetBytes(order.symbol);
                        byte[] bytes = w.ToArray();
                        bool found = false;
                        for (int p = 0; p + 4 + utf8.Length <= bytes.Length && !found; p++)
                            found = Le.U32(bytes, p) == (uint)utf8.Length && bytes.Skip(p + 4).Take(utf8.Length).SequenceEqual(utf8);
                        Assert.IsTrue(found, order.symbol);
                        var again = new WriteBuffer(16);
                        Assert.AreEqual(size, model(order, again));
                        CollectionAssert.AreEqual(bytes, again.ToArray());
                    }
            // The string pool: strings in the same slot (same length, first and last four
            // bytes) that differ in one byte anywhere are told apart, in both formats.
            foreach (bool final in new[] { false, true })
                for (int len = 1; len <= 33; len++)
                    for (int at = 0; at < len; at++)
                        foreach (char c in new[] { 'a', 'b' })
                        {
                            var chars = new char[len];
                            for (int i = 0; i < len; i++) chars[i] = (char)('A' + i % 26);
                            chars[at] = c;
                            var o = new proto.Order { uid = 1, symbol = new string(chars) };
                            var codec = proto.Fbe.Order.Instance;
                            byte[] data = final ? codec.FinalModel.Serialize(o) : codec.Model.Serialize(o);
                            var back = final ? codec.FinalModel.Deserialize(data) : codec.Model.Deserialize(data);
                            Assert.AreEqual(o.symbol, back.symbol);
                        }
            var buf = new WriteBuffer(64);
            Assert.AreEqual(-1, buf.PutAscii("abcdefgh\u00E9"));
            Assert.AreEqual(0, buf.Size);
            Assert.IsTrue(buf.Data.All(x => x == 0));
            Assert.AreEqual(-1, buf.PutAscii(null));
        }
    }

    [TestFixture]
    public class EqualityTests
    {
        [Test]
        public void KeyedStructsCompareByKeys()
        {
            var a = new proto.Order { uid = 1, symbol = "A" };
            var b = new proto.Order { uid = 1, symbol = "B" };
            Assert.AreEqual(a, b);
            Assert.AreEqual(a.GetHashCode(), b.GetHashCode());
            Assert.Less(a.CompareTo(new proto.Order { uid = 2 }), 0);
            var set = new SortedSet<proto.Balance> { new proto.Balance { currency = "USD", amount = 1 }, new proto.Balance { currency = "USD", amount = 2 } };
            Assert.AreEqual(1, set.Count);
            Assert.AreEqual(1.0, set.Min.amount); // the first stays
        }

        [Test]
        public void UnkeyedStructsCompareEveryField()
        {
            var a = new hostile.Bag();
            var b = new hostile.Bag();
            Assert.AreEqual(a, b);
            b.blob = new byte[] { 1 };
            Assert.AreNotEqual(a, b);
            a.blob = new byte[] { 1 };
            Assert.AreEqual(a, b);
            a.words.Add("x");
            Assert.AreNotEqual(a, b);
        }
    }

    [TestFixture]
    public class ProtocolTests
    {
        sealed class Collect : protocol.Fbe.Receiver
        {
            public readonly List<object> Got = new List<object>();
            public Collect(bool final) : base(final) { }
            protected override void OnReceive(protocol.OrderMessage v) { Got.Add(v); }
            protected override void OnReceive(protocol.BalanceMessage v) { Got.Add(v); }
            protected override void OnReceive(protocol.AccountMessage v) { Got.Add(v); }
        }

        [Test]
        public void GoldenStreamsByteByByteAndBack()
        {
            foreach (bool final in new[] { false, true })
            {
                byte[] stream = Vectors.Hex(final ? "protocol.final.hex" : "protocol.hex");
                var r = new Collect(final);
                for (int i = 0; i < stream.Length; i++) r.Receive(stream, i, 1);
                Assert.AreEqual(3, r.Got.Count);
                Assert.AreEqual(0, r.Pending);
                var sink = new MemorySink();
                var s = new protocol.Fbe.Sender(sink, final);
                s.Send((protocol.OrderMessage)r.Got[0]);
                s.Send((protocol.BalanceMessage)r.Got[1]);
                s.Send((protocol.AccountMessage)r.Got[2]);
                CollectionAssert.AreEqual(stream, sink.Buffer.ToArray());
            }
        }

        sealed class Forward : protocol.Fbe.Proxy
        {
            public readonly List<uint> Types = new List<uint>();
            public Forward(bool final) : base(final) { }
            protected override void OnProxy(protocol.Fbe.OrderMessage c, uint type, byte[] b, int o, int n) { Types.Add(type); }
            protected override void OnProxy(protocol.Fbe.BalanceMessage c, uint type, byte[] b, int o, int n) { Types.Add(type); }
            protected override void OnProxy(protocol.Fbe.AccountMessage c, uint type, byte[] b, int o, int n) { Types.Add(type); }
        }

        [Test]
        public void ProxyVerifiesWithoutDeserializing()
        {
            foreach (bool final in new[] { false, true })
            {
                byte[] stream = Vectors.Hex(final ? "protocol.final.hex" : "protocol.hex");
                var p = new Forward(final);
                p.Receive(stream, 0, stream.Length);
                CollectionAssert.AreEqual(new uint[] { 1, 2, 3 }, p.Types);
            }
        }

        [Test]
        public void OversizedMessageIsRejected()
        {
            var r = new Collect(false);
            var data = new byte[16];
            Le.Put(data, 0, 0x7FFFFFFFu);
            Assert.AreEqual(ErrorCode.TooLarge, Assert.Throws<FastwireException>(() => r.Receive(data, 0, data.Length)).Code);
        }
    }
}
