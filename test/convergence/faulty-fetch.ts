// A device's network with faults the convergence simulation switches on and off: the phone
// goes offline (every request fails at once, and the open change stream is cut as a lost
// network would cut it), a push whose answer is lost (the server did the work, the device
// hears an error and retries), and a push sent twice (a flaky proxy or a double tap that
// repeats the request). The device is the real client module; only its fetch is wrapped.

export interface FaultCounts {
  /** Requests refused because the device was offline. */
  offlineFailures: number;
  /** Push answers thrown away after the server had answered. */
  lostAnswers: number;
  /** Pushes sent twice (one after the other, or both at once). */
  duplicated: number;
  /**
   * Answers 5xx, with the route and the problem: the server failing unexpectedly. RxDB would
   * retry and often converge anyway, which would hide the bug, so the simulation reports them.
   */
  serverErrors: string[];
}

export interface FaultControl {
  setOffline(offline: boolean): void;
  /**
   * The next `count` pushes reach the server, but their answers are lost. With `thenOffline`
   * the device also drops off the network right after the last one, so it cannot retry until
   * the test brings it back (and others can act on what it pushed meanwhile).
   */
  loseNextPushes(count: number, thenOffline?: boolean): void;
  /** The next push is sent twice; `concurrent` sends both copies at once. */
  duplicateNextPush(concurrent: boolean): void;
  counts(): FaultCounts;
  fetch: typeof fetch;
}

const offlineError = () => new TypeError('fetch failed (simulated: offline)');

export function faultyFetch(base: typeof fetch = (input, init) => fetch(input, init)): FaultControl {
  let offline = false;
  let lose = 0;
  let offlineAfterLoss = false;
  const duplicates: boolean[] = [];
  const counts: FaultCounts = { offlineFailures: 0, lostAnswers: 0, duplicated: 0, serverErrors: [] };
  // Open change streams, cut when the device goes offline: otherwise a stream opened before
  // would keep delivering events through a "dead" network.
  const streams = new Set<AbortController>();

  const isPush = (url: string) => /\/sync\/[a-z]+\/push$/.test(url);

  const noted = async (res: Response, url: string) => {
    if (res.status >= 500) {
      const body = await res
        .clone()
        .text()
        .catch(() => '');
      counts.serverErrors.push(`${res.status} ${new URL(url).pathname}: ${body.slice(0, 300)}`);
    }
    return res;
  };
  const send: typeof fetch = async (input, init) =>
    noted(await base(input, init), String(input instanceof Request ? input.url : input));

  const wrapped: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (offline) {
      counts.offlineFailures += 1;
      // Fail asynchronously, as a real network error does.
      await new Promise((r) => setTimeout(r, 1));
      throw offlineError();
    }
    if (url.endsWith('/sync/stream')) {
      const connection = new AbortController();
      const outer = init?.signal;
      if (outer?.aborted) connection.abort(outer.reason);
      outer?.addEventListener('abort', () => connection.abort(outer.reason), { once: true });
      streams.add(connection);
      connection.signal.addEventListener('abort', () => streams.delete(connection), { once: true });
      return send(input, { ...init, signal: connection.signal });
    }
    if (isPush(url) && lose > 0) {
      lose -= 1;
      const res = await send(input, init);
      // Read the whole answer first: the server has finished the work when it is dropped.
      await res.text();
      counts.lostAnswers += 1;
      if (lose === 0 && offlineAfterLoss) {
        offlineAfterLoss = false;
        control.setOffline(true);
      }
      throw new TypeError('fetch failed (simulated: answer lost)');
    }
    const concurrent = isPush(url) ? duplicates.shift() : undefined;
    if (concurrent !== undefined) {
      counts.duplicated += 1;
      // The body is a string (JSON), so the same init can be sent twice.
      if (concurrent) {
        const [first, second] = await Promise.all([send(input, init), send(input, init)]);
        await second.text();
        return first;
      }
      const first = await send(input, init);
      await first.text();
      return send(input, init);
    }
    return send(input, init);
  };

  const control: FaultControl = {
    setOffline(value) {
      offline = value;
      if (value) for (const s of [...streams]) s.abort(offlineError());
    },
    loseNextPushes(count, thenOffline = false) {
      lose += count;
      offlineAfterLoss ||= thenOffline;
    },
    duplicateNextPush(concurrent) {
      duplicates.push(concurrent);
    },
    counts: () => ({ ...counts, serverErrors: [...counts.serverErrors] }),
    fetch: wrapped,
  };
  return control;
}
