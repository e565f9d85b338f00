import { describe, expect, it } from 'vitest';
import { notificationTarget, parsePushPayload } from './push-payload.ts';

describe('push payload', () => {
  it('reads title, body, url and tag of the server message', () => {
    const n = parsePushPayload(
      JSON.stringify({
        type: 'order.approved',
        title: 'Pedido 77 aprovado',
        body: 'Padaria',
        url: '/pedidos/4321',
        tag: 'pedido-4321',
      }),
    );
    expect(n).toEqual({ title: 'Pedido 77 aprovado', body: 'Padaria', url: '/pedidos/4321', tag: 'pedido-4321' });
  });

  it('still shows something for an empty or broken payload', () => {
    expect(parsePushPayload(null).title).toBe('Campo');
    expect(parsePushPayload('texto solto')).toMatchObject({ title: 'Campo', body: 'texto solto', url: '/' });
    expect(parsePushPayload('[1]').title).toBe('Campo');
  });

  it('opens only paths of our own origin', () => {
    const origin = 'https://campo.example';
    expect(notificationTarget('/pedidos/1', origin)).toBe('https://campo.example/pedidos/1');
    expect(notificationTarget('https://evil.example/x', origin)).toBe('https://campo.example/');
    expect(notificationTarget('//evil.example/x', origin)).toBe('https://campo.example/');
    expect(notificationTarget(undefined, origin)).toBe('https://campo.example/');
  });
});
