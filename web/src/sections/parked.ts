// Trained state that outlives a change of the page's language. The article re-mounts every
// section when the reader switches between English and 中文 (every string is rebuilt); a section
// that has trained models parks them here (the remote models and their history) instead of
// deleting them, and the section mounted next adopts them if its settings are still the ones they
// were trained with. What is not adopted is discarded (its worker models deleted): the shell calls
// discardParked() once the new sections are mounted, and whenever the re-mount is not only a
// change of language.
import type { SectionId } from '../section';

interface Entry {
  /** the settings the state was trained with (a section's own serialisation) */
  readonly key: string;
  readonly state: unknown;
  discard(): void;
}

const shelf = new Map<SectionId, Entry>();

/** One section's place on the shelf, typed with what it parks. */
export interface ParkingSlot<T> {
  /** Leaves `state` for the next mount; `discard` frees it (deletes its worker models) if nobody adopts it. */
  park(key: string, state: T, discard: (state: T) => void): void;
  /** The parked state if it was trained with settings `key` (taken off the shelf); otherwise it is discarded and null returned. */
  adopt(key: string): T | null;
}

export function parkingSlot<T>(id: SectionId): ParkingSlot<T> {
  return {
    park(key, state, discard) {
      shelf.get(id)?.discard(); // a second park before anyone adopted: the older state is gone
      shelf.set(id, { key, state, discard: () => discard(state) });
    },
    adopt(key) {
      const entry = shelf.get(id);
      if (!entry) return null;
      shelf.delete(id);
      if (entry.key !== key) {
        entry.discard();
        return null;
      }
      return entry.state as T;
    },
  };
}

/** Discards every state nobody adopted. */
export function discardParked(): void {
  const entries = [...shelf.values()];
  shelf.clear();
  for (const entry of entries) entry.discard();
}

/** How many states wait on the shelf (for tests). */
export function parkedCount(): number {
  return shelf.size;
}
