# frozen_string_literal: true

require_relative "test_helper"

# The type mapping: defaults, range checks on write, decimals, uuids, equality and
# hashing by the shared rule, sets and maps, JSON forms.
class TestTypes < Minitest::Test
  def test_defaults_from_the_schema
    p = Everything::Primitives.new
    assert_equal [true, 0xFF, 33, 0x20AC, -128, 255], [p.f_bool, p.f_byte, p.f_char, p.f_wchar, p.f_int8, p.f_uint8]
    assert_equal 0xFFFFFFFFFFFFFFFF, p.f_uint64
    assert_equal "123456.123456", p.f_decimal.to_s
    assert_equal "Hello, \"world\"!\n", p.f_string
    assert_equal "123e4567-e89b-12d3-a456-426655440000", p.f_uuid.to_s
    assert_equal Fastwire::UUID::NIL, p.f_uuid0
    refute_equal Everything::Primitives.new.f_uuid4, p.f_uuid4 # computed per object
    assert_operator p.f_utc, :>, 1_700_000_000 * 1_000_000_000
    assert_equal Proto::State::INITIALIZED | Proto::State::BAD, Proto::Account.new.state
    o = Everything::Optionals.new
    assert_nil o.f_bool
    assert_equal 42, o.f_int32
    assert_equal "-0.001", o.f_decimal.to_s
  end

  def test_integers_are_range_checked_on_write
    model = Everything::PrimitivesModel.new
    [[:f_int8=, 128], [:f_uint8=, -1], [:f_int64=, 1 << 63], [:f_uint64=, 1 << 64], [:f_int32=, "1"]].each do |setter, bad|
      p = Everything::Primitives.new
      p.public_send(setter, bad)
      assert_raises(Fastwire::EncodeError) { model.serialize(p) }
      assert_raises(Fastwire::EncodeError) { Everything::PrimitivesFinalModel.new.serialize(p) }
    end
    assert_raises(Fastwire::EncodeError) { model.serialize(Proto::Order.new) }
    c = Everything::Collections.new(f_array: [1, 2])
    assert_raises(Fastwire::EncodeError) { Everything::CollectionsModel.new.serialize(c) }
  end

  def test_decimal_keeps_its_scale_and_takes_bigdecimal
    o = Everything::Optionals.new(f_decimal: BigDecimal("1.50"))
    back = Everything::OptionalsModel.new.deserialize(Everything::OptionalsModel.new.serialize(o))
    assert_equal "1.5", back.f_decimal.to_s
    assert_equal BigDecimal("1.5"), back.f_decimal.to_d
    d = Fastwire::Decimal.parse("1.50")
    assert_equal "1.50", d.to_s
    assert_equal Fastwire::Decimal.parse("1.5"), d
    assert_equal Fastwire::Decimal.parse("1.5").hash, d.hash
    assert_raises(Fastwire::EncodeError) { Fastwire::Decimal.from(BigDecimal("1e40")) }
    assert_raises(Fastwire::DecodeError) { Fastwire::Decimal.parse("1e999999999") }
    assert_equal "0", Fastwire::Decimal.parse("0e999999999").to_s
  end

  def test_equality_by_keys_and_every_field
    a = Proto::Order.new(uid: 1, symbol: "A")
    b = Proto::Order.new(uid: 1, symbol: "B")
    assert_equal a, b
    assert_equal a.hash, b.hash
    assert a.eql?(b)
    assert_operator Proto::Order.new(uid: 0), :<, a
    assert_equal 1, { a => 1, b => 2 }.size
    refute_equal Everything::Optionals.new(f_int32: 1), Everything::Optionals.new(f_int32: 2)
    assert_equal Everything::Empty.new, Everything::Empty.new
  end

  def test_sets_and_maps_are_written_in_order_and_keep_the_first_equal_key
    c = Everything::Collections.new(f_set: Set[3, 1, 2], f_map: { 5 => "five", -1 => "minus" },
                                    f_set_struct: Set[Proto::Balance.new(currency: "Z"), Proto::Balance.new(currency: "A")])
    json = c.to_json
    assert_includes json, '"f_set":[1,2,3]'
    assert_includes json, '"f_map":{"-1":"minus","5":"five"}'
    assert_includes json, '"f_set_struct":[{"currency":"A"'
    back = Everything::CollectionsFinalModel.new.deserialize(Everything::CollectionsFinalModel.new.serialize(c))
    assert_equal Set[1, 2, 3], back.f_set
    assert_equal({ -1 => "minus", 5 => "five" }, back.f_map)
    j = Everything::Collections.from_json('{"f_map":{"7":"a","0007":"b"}}')
    assert_equal({ 7 => "a" }, j.f_map)
  end

  # docs/wire-format.md#json, "Repeated keys": a field's last value wins, a map's first
  # entry stays, every value is checked.
  def test_json_repeated_keys
    assert_equal({ 7 => "a" }, Everything::Collections.from_json('{"f_map":{"7":"a","7":"b"}}').f_map)
    a = Proto::Account.from_json('{"wallet":{"currency":"X","amount":2.0},"wallet":{"amount":5.0}}')
    assert_equal ["", 5.0], [a.wallet.currency, a.wallet.amount]
    ['{"f_map":{"7":5,"7":"a"}}', '{"f_map":{"7":"a","7":5}}', '{"f_vector_struct":[{"uid":"x","uid":1}]}'].each do |t|
      assert_raises(Fastwire::DecodeError) { Everything::Collections.from_json(t) }
    end
    assert_raises(Fastwire::DecodeError) { Proto::Order.from_json('{"side":"sell"}') }
  end

  def test_json_forms
    p = Everything::Primitives.new(f_double: Float::NAN, f_float: 1.5e10, f_int64: -(1 << 63), f_uint64: (1 << 64) - 1,
                                   f_bytes: "\x00\xFF".b, f_string: "\u0001\u001F/\u007F")
    j = p.to_json
    assert_includes j, '"f_double":"NaN"'
    assert_includes j, '"f_float":15000000512.0'
    assert_includes j, '"f_int64":-9223372036854775808'
    assert_includes j, '"f_uint64":18446744073709551615'
    assert_includes j, '"f_bytes":"AP8="'
    assert_includes j, '"f_string":"\\u0001\\u001F/' + "\u007F\""
    back = Everything::Primitives.from_json(j)
    assert back.f_double.nan?
    assert_equal (1 << 64) - 1, back.f_uint64
    # (text cut after a value inside an object or array: a fuzz finding)
    ['{"f_int8":128}', '{"f_int8":null}', '{"f_double":NaN}', '{"f_string":"\ud800"}', "[1]", '{"f_bool":1}',
     '{"f_bool":true', '{"zz":[1', '{"zz":[1,]}', '{"zz":{"a":1,}}'].each do |bad|
      assert_raises(Fastwire::DecodeError, bad) { Everything::Primitives.from_json(bad) }
    end
    deep = "{\"zz\":#{'[' * 64}#{']' * 64}}"
    assert_equal "too_deep", assert_raises(Fastwire::DecodeError) { Everything::Primitives.from_json(deep) }.code
  end

  # A lone surrogate is rejected by the JSON reader itself, with DecodeError, whichever
  # field or key holds it (decimal and uuid fields and integer keys once raised
  # ArgumentError from a regex over the string: issue 37, D1).
  def test_json_lone_surrogates_are_decode_errors
    coll = "{\"f_array_struct\":[{},{}],"
    [['{"f_decimal":"\\ud800"}', Everything::Primitives], ['{"f_decimal":"1\\udc00"}', Everything::Primitives],
     ['{"f_uuid":"123e4567-e89b-12d3-a456-42665544000\\ud800"}', Everything::Primitives],
     ['{"f_decimal":"\\ud800"}', Everything::Optionals], ['{"f_uuid":"\\udfff"}', Everything::Optionals],
     ['{"f_bytes":"\\ud800"}', Everything::Primitives], ['{"f_string":"a\\ud800b"}', Everything::Primitives],
     ['{"f_utc":"\\ud800"}', Everything::Primitives], ['{"zz":["\\udc00\\ud800"]}', Everything::Primitives],
     ["#{coll}\"f_map\":{\"\\ud800\":\"x\"}}", Everything::Collections],
     ["#{coll}\"f_map_enum_key\":{\"\\ud800\":{}}}", Everything::Collections],
     ["#{coll}\"f_hash\":{\"\\ud800\":\"\"}}", Everything::Collections],
     ["#{coll}\"f_map_optional\":{\"\\udc00\\ud800\":1.0}}", Everything::Collections]].each do |text, type|
      err = assert_raises(Fastwire::DecodeError, text) { type.from_json(text) }
      assert_equal "invalid_argument", err.code, text
    end
    pair = Everything::Primitives.from_json('{"f_string":"\\ud83d\\ude00"}')
    assert_equal "\u{1F600}", pair.f_string
  end

  # Base64 with its padding and the standard alphabet only; unused low bits are ignored.
  def test_json_base64
    { "QQ==" => "A", "QR==" => "A", "QUI=" => "AB", "QUJ=" => "AB", "QUJD" => "ABC", "" => "" }.each do |text, bytes|
      assert_equal bytes.b, Hostile::Bag.from_json("{\"blob\":\"#{text}\"}").blob, text
    end
    ["NaN", "QQ", "QQ=", "Q===", "====", "=", "QQ==QQ==", "-_-_", "QU JD", "QUJD\\n", "QUJ*"].each do |text|
      assert_raises(Fastwire::DecodeError, text) { Hostile::Bag.from_json("{\"blob\":\"#{text}\"}") }
    end
  end

  def test_printout_of_chars_and_text_that_is_not_utf8
    p = Everything::Primitives.new(f_char: 233, f_wchar: 0x1F600, f_string: "\u20AC")
    assert_includes p.to_s, "f_char='\u00E9',f_wchar='U+1F600'"
    p.f_string = "\xFF\u20AC".dup.force_encoding(Encoding::UTF_8) # bytes read that are not UTF-8 (a fuzz finding)
    assert_includes p.to_s, "f_char='\u00E9'"
  end

  def test_uuid
    u = Fastwire::UUID.parse("123e4567-e89b-12d3-a456-426655440000")
    assert_equal "123e4567-e89b-12d3-a456-426655440000", u.to_s
    assert_equal u, Fastwire::UUID.new(u.bytes)
    assert_nil Fastwire::UUID.parse("not-a-uuid")
    assert_equal 4, Fastwire::UUID.uuid4.bytes.getbyte(6) >> 4
    assert_equal 1, Fastwire::UUID.uuid1.bytes.getbyte(6) >> 4
  end

  # A struct whose fields the runtime's codecs write (arrays of structs holding non-ASCII
  # bytes): the message stays a binary String (a fuzz finding: an empty pack format once
  # made the buffer US-ASCII and the next append raised Encoding::CompatibilityError).
  def test_final_serialize_keeps_the_buffer_binary
    c = Everything::Collections.new
    c.f_array_struct[1].f_string = "\u00e9t\u00e9"
    c.f_map = { 1 => "\u00e9" }
    model = Everything::CollectionsFinalModel.new
    data = model.serialize(c)
    assert_equal Encoding::BINARY, data.encoding
    assert_equal c.to_s, model.deserialize(data).to_s
  end

  def test_version_check
    assert_raises(Fastwire::VersionError) { Fastwire.check_version("9.9.0", "x") }
    Fastwire.check_version(Fastwire::VERSION, "x")
  end
end
