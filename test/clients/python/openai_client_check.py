"""The official Python `openai` SDK against a running gateway.

Calls chat, streamed chat (include_usage), a tool call, speech, transcription (json and verbose_json)
and images, and checks every JSON body the gateway sent against the SDK's own pydantic types in strict
mode (`Model.model_validate(raw, strict=True)`: no coercion, every required field present, every
discriminated union resolved). Prints one `RESULT {json}` line per call, with the gateway's request id
(for the jest test to match against the recorded events) and the token usage as the SDK reports it.
Exits 1 when any call failed.

Usage: python openai_client_check.py BASE_URL API_KEY WAV_PATH
"""

import json
import sys
import traceback

import openai
from openai import OpenAI
from openai.types.audio import Transcription, TranscriptionVerbose
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.images_response import ImagesResponse

LOOKUP_TOOL = {
    "type": "function",
    "function": {
        "name": "lookup",
        "description": "Look a word up.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
    },
}
PROMPT = [{"role": "user", "content": "Say hello to the gateway."}]


def chat_usage(usage):
    """CompletionUsage as the SDK parsed it (the gateway's vector rides along as extra fields)."""
    if usage is None:
        return None
    prompt = usage.prompt_tokens_details
    completion = usage.completion_tokens_details
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.total_tokens,
        "cached_tokens": prompt.cached_tokens if prompt else None,
        "prompt_audio_tokens": prompt.audio_tokens if prompt else None,
        "reasoning_tokens": completion.reasoning_tokens if completion else None,
        "completion_audio_tokens": completion.audio_tokens if completion else None,
    }


def transcription_usage(usage):
    if usage is None:
        return None
    if usage.type == "duration":
        return {"type": "duration", "seconds": usage.seconds}
    details = usage.input_token_details
    return {
        "type": "tokens",
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
        "audio_tokens": details.audio_tokens if details else None,
        "text_tokens": details.text_tokens if details else None,
    }


def call_chat(client):
    raw = client.chat.completions.with_raw_response.create(model="aria", messages=PROMPT)
    completion = ChatCompletion.model_validate(json.loads(raw.text), strict=True)
    return raw.headers.get("x-request-id"), chat_usage(completion.usage)


def call_stream(client):
    with client.chat.completions.with_streaming_response.create(
        model="aria", messages=PROMPT, stream=True, stream_options={"include_usage": True}
    ) as response:
        chunks = [
            ChatCompletionChunk.model_validate(json.loads(line[len("data: "):]), strict=True)
            for line in response.iter_lines()
            if line.startswith("data: ") and line != "data: [DONE]"
        ]
        request_id = response.headers.get("x-request-id")
    if any(chunk.usage is not None for chunk in chunks[:-1]) or chunks[-1].choices:
        raise AssertionError("usage must come in one last chunk with no choices")
    return request_id, chat_usage(chunks[-1].usage)


def call_tools(client):
    raw = client.chat.completions.with_raw_response.create(
        model="aria", messages=[{"role": "user", "content": "Look up the word gateway."}], tools=[LOOKUP_TOOL]
    )
    completion = ChatCompletion.model_validate(json.loads(raw.text), strict=True)
    call = completion.choices[0].message.tool_calls[0]
    if call.type != "function" or call.function.name != "lookup":
        raise AssertionError(f"expected a lookup call, got {call!r}")
    return raw.headers.get("x-request-id"), chat_usage(completion.usage)


def call_speech(client):
    raw = client.audio.speech.with_raw_response.create(model="chorus-voices", voice="vivian", input="Hello there.", response_format="wav")
    if raw.content[:4] != b"RIFF":
        raise AssertionError("speech did not return a WAV file")
    return raw.headers.get("x-request-id"), None


def call_transcription(client, wav_path):
    with open(wav_path, "rb") as audio:
        raw = client.audio.transcriptions.with_raw_response.create(model="symphony", file=audio)
    transcript = Transcription.model_validate(json.loads(raw.text), strict=True)
    return raw.headers.get("x-request-id"), transcription_usage(transcript.usage)


def call_transcription_verbose(client, wav_path):
    # TranscriptionVerbose requires `language`; the gateway echoes it only when the request sent one (spec).
    with open(wav_path, "rb") as audio:
        raw = client.audio.transcriptions.with_raw_response.create(
            model="symphony", file=audio, response_format="verbose_json", language="en", timestamp_granularities=["word", "segment"]
        )
    transcript = TranscriptionVerbose.model_validate(json.loads(raw.text), strict=True)
    if not transcript.words or not transcript.segments:
        raise AssertionError("verbose_json without words or segments")
    return raw.headers.get("x-request-id"), transcription_usage(transcript.usage)


def call_images(client):
    raw = client.images.with_raw_response.generate(model="canvas", prompt="A lighthouse at dusk")
    images = ImagesResponse.model_validate(json.loads(raw.text), strict=True)
    if len(images.data or []) != 1:
        raise AssertionError("expected one image")
    usage = images.usage.model_dump() if images.usage else None
    return raw.headers.get("x-request-id"), usage


def main():
    base_url, api_key, wav_path = sys.argv[1:4]
    client = OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=30)
    calls = [
        ("chat", lambda: call_chat(client)),
        ("stream", lambda: call_stream(client)),
        ("tools", lambda: call_tools(client)),
        ("speech", lambda: call_speech(client)),
        ("transcription_json", lambda: call_transcription(client, wav_path)),
        ("transcription_verbose_json", lambda: call_transcription_verbose(client, wav_path)),
        ("images", lambda: call_images(client)),
    ]
    failed = 0
    for name, call in calls:
        try:
            request_id, usage = call()
            line = {"call": name, "ok": True, "request_id": request_id, "usage": usage}
        except Exception as error:  # every failure is reported, and the remaining calls still run
            failed += 1
            line = {"call": name, "ok": False, "error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc(limit=3)}
        print("RESULT " + json.dumps(line), flush=True)
    print(f"SDK openai {openai.__version__}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
