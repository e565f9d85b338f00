// Server-sent events read off a fetch Response, for tests of GET /sync/stream.

export interface SseEvent {
  event: string;
  data: string;
}

/** Reads SSE events off a response body; every wait has a deadline so a test cannot hang. */
export function sse(res: Response) {
  if (!res.body) throw new Error('no body');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const parse = (block: string): SseEvent => {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    return { event, data: data.join('\n') };
  };
  const next = async (deadline: number): Promise<SseEvent> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return parse(block);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no SSE event before the deadline');
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no SSE event before the deadline')), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) throw new Error('the stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return {
    /** Events up to and including the first one `until` accepts. */
    async until(until: (e: SseEvent) => boolean, ms = 5000): Promise<SseEvent[]> {
      const deadline = Date.now() + ms;
      const seen: SseEvent[] = [];
      for (;;) {
        const e = await next(deadline);
        seen.push(e);
        if (until(e)) return seen;
      }
    },
    close: () => reader.cancel().catch(() => undefined),
  };
}
