import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Catálogo: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Catálogo" />;
}
