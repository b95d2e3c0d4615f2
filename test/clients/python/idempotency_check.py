"""The official Python openai SDK sending Idempotency-Key through `extra_headers`: the same chat request twice.

Prints one line `RESULT <json>`: each attempt's x-request-id, Idempotent-Replayed header and body text.
"""
import json
import sys

import openai


def main() -> None:
    base_url, api_key = sys.argv[1], sys.argv[2]
    client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0)
    attempts = []
    for _ in range(2):
        raw = client.chat.completions.with_raw_response.create(
            model="aria",
            messages=[{"role": "user", "content": "A retried question from Python."}],
            extra_headers={"Idempotency-Key": "sdk-python-1"},
        )
        raw.parse()  # the SDK's own types accept the replayed body
        attempts.append(
            {
                "request_id": raw.headers.get("x-request-id"),
                "replayed": raw.headers.get("idempotent-replayed"),
                "body": raw.http_response.text,
            }
        )
    print("RESULT " + json.dumps(attempts))


if __name__ == "__main__":
    main()
