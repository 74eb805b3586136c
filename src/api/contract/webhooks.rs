//! The webhook a table may name, described as OpenAPI 3.1 describes requests Moot sends: the
//! top-level `webhooks` holds `tableEvent`, the POST a receiver gets — the table's event JSON
//! with its signature and id headers, and the answers Moot reads.

use serde_json::{Value, json};

pub fn table_event(document: &mut Value) {
    let header = |name: &str, description: &str, pattern: &str, example: &str| {
        json!({
            "in": "header",
            "name": name,
            "required": true,
            "description": description,
            "schema": {"type": "string", "pattern": pattern},
            "example": example,
        })
    };
    document["webhooks"] = json!({
        "tableEvent": {
            "post": {
                "summary": "An event of a table that names a webhook",
                "description": "Posted to the table's `webhook.url` for each move, resignation, win on time, closing as abandoned and abort, in the table's order, and each deadline near or passed. Check `Moot-Signature` before trusting the body: the HMAC-SHA-256 of `<t>.<body>` (the body as received), keyed with the table's `webhook.secret`, in hex, equals `v1`; refuse a `t` more than a few minutes old. Answer any 2xx to take the event; anything else (or no answer within 10 s) is retried with growing waits for a day. An event may come twice: deduplicate by `Moot-Event-Id`.",
                "operationId": "table_event",
                "tags": ["tables"],
                // A receiver answers this request, no client sends it. openapi-generator (7.x)
                // would write it as a method of its clients, whose Python does not compile (the
                // headers untyped); it leaves out what is marked internal.
                "x-internal": true,
                "parameters": [
                    header(
                        "Moot-Signature",
                        "`t=<unix seconds>,v1=<hex HMAC-SHA-256 of \"<t>.<body>\">`",
                        "^t=[0-9]+,v1=[0-9a-f]{64}$",
                        "t=1796212800,v1=d925d919a5afbf390c0b2fa92bc3b1377dc2d7340b7e69e795dae4cb64471b15",
                    ),
                    header(
                        "Moot-Event-Id",
                        "`<table id>-<seq>`, or `<table id>-<seq>-<type>` for a deadline's notice (it follows change `<seq>`): unique, to deduplicate.",
                        "^[0-9a-f]{32}-[0-9]+(-deadline_(near|passed))?$",
                        "5f0c9d4e8b7a6f3e2d1c0b9a8f7e6d5c-3",
                    ),
                    header(
                        "Moot-Event",
                        "The event's `type`: `move`, `resign`, `claim`, `abandoned`, `aborted`, `deadline_near` or `deadline_passed`.",
                        "^(move|resign|claim|abandoned|aborted|deadline_near|deadline_passed)$",
                        "move",
                    ),
                ],
                "requestBody": {
                    "required": true,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TableEvent"}}},
                },
                "responses": {
                    "2XX": {"description": "Taken: not sent again."},
                    "default": {"description": "Not taken: sent again later, for up to a day."},
                },
            },
        },
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_webhook_posts_a_table_event_with_its_signature() {
        let mut document = json!({"paths": {}});
        table_event(&mut document);
        let post = &document["webhooks"]["tableEvent"]["post"];
        assert_eq!(
            post["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/TableEvent"
        );
        let headers: Vec<&str> = post["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(headers, ["Moot-Signature", "Moot-Event-Id", "Moot-Event"]);
        assert_eq!(post["x-internal"], true, "no client generates it");
    }
}
