import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** Funil: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="Funil" />;
}
