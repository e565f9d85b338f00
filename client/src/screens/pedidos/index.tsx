import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Pedidos: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Pedidos" />;
}
