"""The C++ JSON and protocol headers (generators/cpp/__init__.py)."""

import os

from fastwire import Reporter, compile_schema, lower
from fastwire.generators import Options
from fastwire.generators.cpp import generate as cpp_generate

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def generate(schema_name, **options):
    reporter = Reporter()
    schema = compile_schema(os.path.join(REPO, "schemas", schema_name), reporter)
    assert schema is not None, [d.render() for d in reporter.diagnostics]
    return schema, cpp_generate(lower.lower(schema), Options(**options))


def test_no_extras_without_options():
    _, files = generate("protocol.fbe")
    assert sorted(files) == ["proto.h", "proto_models.h", "protocol.h", "protocol_models.h"]


def test_file_names_follow_the_options():
    schema, files = generate("protocol.fbe", json=True, proto=True, final=True)
    for package in schema.packages:
        for suffix in ("", "_models", "_json", "_protocol", "_final_protocol"):
            assert f"{package.name}{suffix}.h" in files
    assert len(files) == 5 * len(schema.packages)


def test_protocol_sends_its_messages_numbered_1_2_3():
    schema, files = generate("protocol.fbe", proto=True)
    layout = lower.lower(schema).package("protocol")
    assert layout.sends == (
        "protocol.OrderMessage", "protocol.BalanceMessage", "protocol.AccountMessage")
    model = lower.lower(schema)
    assert [model.struct(n).type_number for n in layout.sends] == [1, 2, 3]
    assert not layout.unsendable
    text = files["protocol_protocol.h"]
    assert "using Messages = fastwire::protocol::type_list<OrderMessage, BalanceMessage, AccountMessage>;" in text
    for cls in ("Sender", "Receiver", "Proxy", "Client"):
        assert f"class {cls} : public fastwire::protocol::" in text


def test_a_package_without_messages_sends_its_structs():
    schema, files = generate("protocol.fbe", proto=True)
    assert lower.lower(schema).package("proto").sends == (
        "proto.Order", "proto.Balance", "proto.Account")
    assert "type_list<Order, Balance, Account>" in files["proto_protocol.h"]


def test_request_traits():
    _, files = generate("everything.fbe", proto=True)
    text = files["everything_protocol.h"]
    assert "struct message_traits<::everything::PingRequest> {" in text
    assert "using response = ::everything::Pong;" in text
    assert "using rejects = type_list<::everything::Failure, ::everything::Refused>;" in text
    assert "struct message_traits<::everything::Notify> {" in text
    assert "using response = void;" in text


def test_final_protocol_reuses_the_versioned_header():
    _, files = generate("protocol.fbe", proto=True, final=True)
    text = files["protocol_final_protocol.h"]
    assert '#include "protocol_protocol.h"' in text
    assert "class FinalSender : public fastwire::protocol::sender<fastwire::protocol::final_format, Messages>" in text
    assert "message_traits" not in text  # defined once, in protocol_protocol.h


def test_json_header_includes_imports():
    _, files = generate("everything.fbe", json=True)
    text = files["everything_json.h"]
    assert "#include <fastwire/json_reader.h>" in text
    assert '#include "proto_json.h"' in text and '#include "protoex_json.h"' in text
