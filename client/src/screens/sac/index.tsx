import { PlaceholderScreen } from '../placeholder/placeholder-screen.tsx';

/** SAC: not built yet. */
export default function Screen() {
  return <PlaceholderScreen title="SAC" />;
}
