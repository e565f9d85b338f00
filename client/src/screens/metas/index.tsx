import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Metas: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Metas" />;
}
