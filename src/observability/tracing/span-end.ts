// Ends a span, marking it failed when there was a failure (an error, or a short reason).
import { SpanStatusCode, type Span } from '@opentelemetry/api';

export function endSpan(span: Span, failure?: unknown): void {
  if (failure !== undefined) {
    const code = (failure as { code?: unknown }).code;
    span.setAttribute('error.type', typeof failure === 'string' ? failure : typeof code === 'string' ? code : (failure as Error).name ?? 'error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: failure instanceof Error ? failure.message : String(failure) });
  }
  span.end();
}
