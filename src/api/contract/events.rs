//! Event streams (`text/event-stream`) are described event by event, as OpenAPI describes a
//! sequence of server-sent events: each event an object of its fields (`id`, `event`, `data`,
//! `retry`), whose `data` is JSON of the schema the handler names.

use serde_json::{Value, json};

pub fn server_sent(document: &mut Value) {
    let streams = super::answer_contents(document)
        .filter(|(media_type, _)| *media_type == "text/event-stream")
        .map(|(_, stream)| stream);
    for stream in streams {
        let data = stream["schema"].take();
        stream["schema"] = json!({
            "type": "object",
            "description": "One server-sent event: its `data` is one JSON object.",
            "required": ["id", "event", "data"],
            "properties": {
                "id": {
                    "type": "string",
                    "pattern": "^[0-9]+$",
                    "description": "The event's `seq`: send the last one received as `Last-Event-ID` to resume."
                },
                "event": {"type": "string", "description": "The event's `type`."},
                "data": {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": data,
                },
                "retry": {"type": "integer", "description": "How long to wait before reconnecting, in milliseconds."},
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_stream_is_described_event_by_event_with_json_data() {
        let mut document = json!({"paths": {"/e": {"get": {"responses": {"200": {"content": {
            "text/event-stream": {"schema": {"$ref": "#/components/schemas/E"}}}},
            "304": {}}}}}});
        server_sent(&mut document);
        let schema = &document["paths"]["/e"]["get"]["responses"]["200"]["content"]["text/event-stream"]
            ["schema"];
        assert_eq!(
            schema["properties"]["data"]["contentSchema"],
            json!({"$ref": "#/components/schemas/E"})
        );
        assert_eq!(schema["required"], json!(["id", "event", "data"]));
        assert!(
            document["paths"]["/e"]["get"]["responses"]["304"]
                .get("content")
                .is_none()
        );
    }
}
