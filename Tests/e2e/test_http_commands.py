"""`POST /api/commands`: protocol commands from a program that keeps no session (a cron
job, a script), answered with `ack`/`error` objects; viewers get the diffs."""
import asyncio
import json
import urllib.error
import urllib.request

from test_protocol import Client, app_db, server  # noqa: F401 (fixtures)


def post(server, body, method="POST"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"{server.origin}/api/commands", data=data, method=method,
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_a_posted_insert_reaches_a_viewer_as_a_diff(server):
    async def scenario():
        viewer = await Client.open(server)
        await viewer.command({"type": "tap", "list": "Lhome", "row": "Rtasks"}, 1)
        version = viewer.screen["version"]
        status, answer = await asyncio.to_thread(post, server, {
            "type": "insert", "list": "Ltasks", "section": "Stodo", "after": "Rbread",
            "row": {"text": "Butter"}, "ref": 7})
        assert status == 200 and answer == {"type": "ack", "ref": 7, "version": version + 1}
        diff = await viewer.expect("diff")
        assert diff["from"] == version and diff["ops"][0]["op"] == "insert"
        assert viewer.rows()[0] == ["Milk", "Eggs", "Bread", "Butter"]
        await viewer.close()
    asyncio.run(scenario())


def test_an_array_is_applied_in_order_and_each_command_answered(server):
    status, answers = post(server, [
        {"type": "update", "list": "Ltasks", "row": "Rmilk", "text": "Oat milk"},
        {"type": "delete", "list": "Ltasks", "rows": ["Rnope"]},
        {"type": "toggle", "list": "Lsettings", "row": "Rauto", "on": False, "ref": 9},
        {"type": "tap", "list": "Lhome", "row": "Rtasks"},
        {"type": "frobnicate"},
    ])
    assert status == 200
    assert [(a["type"], a["ref"], a.get("code")) for a in answers] == [
        ("ack", 0, None), ("error", 1, "not_found"), ("ack", 9, None),
        ("error", 3, "bad_message"), ("error", 4, "bad_message")]
    assert "needs a session" in answers[3]["message"]


def test_bad_requests_are_refused_with_a_clear_status(server):
    status, answer = post(server, b"{not json")
    assert status == 400 and json.loads(answer)["code"] == "bad_json"
    status, answer = post(server, None, method="GET")
    assert status == 405
    status, _ = post(server, b"x" * (64 * 1024 * 16 + 1))
    assert status == 413
    request = urllib.request.Request(f"{server.origin}/api/nothing")
    try:
        urllib.request.urlopen(request, timeout=5)
        raise AssertionError("expected 404")
    except urllib.error.HTTPError as error:
        assert error.code == 404


def grant(db, role, name):
    from conftest import TABLEWEB
    import subprocess
    result = subprocess.run([TABLEWEB, "access", "grant", "--role", role, "--name", name, "--db", db],
                            capture_output=True, text=True, check=True, timeout=30)
    return result.stdout.strip().splitlines()[-1]


def test_with_access_required_a_request_needs_an_editors_bearer_credential(launch_server, app_db):
    editor = grant(app_db, "editor", "Ann")
    viewer = grant(app_db, "viewer", "Bob")
    server = launch_server(db=app_db)
    command = {"type": "update", "list": "Ltasks", "row": "Rmilk", "text": "Oat milk"}

    def post_as(credential):
        headers = {"content-type": "application/json"}
        if credential:
            headers["authorization"] = f"Bearer {credential}"
        request = urllib.request.Request(f"{server.origin}/api/commands", data=json.dumps(command).encode(),
                                         method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    status, answer = post_as(None)
    assert status == 401 and answer["code"] == "unauthorized"
    status, answer = post_as("not-a-credential")
    assert status == 401 and answer["code"] == "unauthorized"
    status, answer = post_as(viewer)
    assert status == 200 and answer["type"] == "error" and answer["code"] == "not_allowed"
    status, answer = post_as(editor)
    assert status == 200 and answer["type"] == "ack"
