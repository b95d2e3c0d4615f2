// Reads a streamed chat answer frame by frame while the test goes on, so a test can act once a stream
// is mid-flight (e.g. kill its upstream) and then see how it ended: `[DONE]` or the gateway's error event.
export interface ChatStreamEnd {
  /** `[DONE]` arrived. */
  finished: boolean;
  /** The payload of an error event (`{error:{message,type,param,code}}`), if one ended the stream. */
  error: { message: string; type: string; param: string | null; code: string } | null;
  /** Frames after the error event or `[DONE]` (there should be none). */
  framesAfterEnd: number;
}

export interface ChatStreamReader {
  status: number;
  requestId: string;
  /** Chunks whose first choice carried generated text (one per token from vLLM and the simulator). */
  contentChunks(): number;
  /** Resolves once a chunk with generated text arrived. */
  firstContent: Promise<void>;
  ended: Promise<ChatStreamEnd>;
}

export async function openChatStream(baseUrl: string, apiKey: string, body: Record<string, unknown>): Promise<ChatStreamReader> {
  const res = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }),
  });
  let content = 0;
  let sawContent!: () => void;
  const firstContent = new Promise<void>((resolve) => (sawContent = resolve));
  const end: ChatStreamEnd = { finished: false, error: null, framesAfterEnd: 0 };
  const onFrame = (data: string) => {
    if (end.finished || end.error) return void (end.framesAfterEnd += 1);
    if (data === '[DONE]') return void (end.finished = true);
    const parsed = JSON.parse(data) as { error?: ChatStreamEnd['error']; choices?: { delta?: { content?: unknown } }[] };
    if (parsed.error) return void (end.error = parsed.error);
    const text = parsed.choices?.[0]?.delta?.content;
    if (typeof text === 'string' && text.length > 0) {
      content += 1;
      sawContent();
    }
  };
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const bytes of res.body!) {
      buffered += decoder.decode(bytes as Uint8Array, { stream: true });
      let cut: number;
      while ((cut = buffered.indexOf('\n\n')) >= 0) {
        const frame = buffered.slice(0, cut);
        buffered = buffered.slice(cut + 2);
        if (frame.startsWith('data: ')) onFrame(frame.slice(6));
      }
    }
    return end;
  })();
  return { status: res.status, requestId: res.headers.get('x-request-id') ?? '', contentChunks: () => content, firstContent, ended };
}
