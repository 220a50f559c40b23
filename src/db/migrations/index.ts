import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122090000 } from './Migration20261122090000.js';
import { Migration20261122100000 } from './Migration20261122100000.js';
import { Migration20261122055324 } from './Migration20261122055324.js';
import { Migration20261122055213 } from './Migration20261122055213.js';
import { Migration20261122051909 } from './Migration20261122051909.js';
import { Migration20261122050000 } from './Migration20261122050000.js';
import { Migration20261122054241 } from './Migration20261122054241.js';
import { Migration20261122043713 } from './Migration20261122043713.js';
import { Migration20261122043811 } from './Migration20261122043811.js';
import { Migration20261122043205 } from './Migration20261122043205.js';
import { Migration20261122031702 } from './Migration20261122031702.js';
import { Migration20261122022134 } from './Migration20261122022134.js';
import { Migration20261124090000 } from './Migration20261124090000.js';
import { Migration20261124120000 } from './Migration20261124120000.js';
import { Migration20261124140000 } from './Migration20261124140000.js';
import { Migration20261125140000 } from './Migration20261125140000.js';
import { Migration20261125150000 } from './Migration20261125150000.js';
import { Migration20261201090000 } from './Migration20261201090000.js';
import { Migration20261201091000 } from './Migration20261201091000.js';
import { Migration20261202090000 } from './Migration20261202090000.js';
import { Migration20261210090000 } from './Migration20261210090000.js';
import { Migration20261215100000 } from './Migration20261215100000.js';
import { Migration20261216090000 } from './Migration20261216090000.js';
import { Migration20261216100000 } from './Migration20261216100000.js';
import { Migration20261217090000 } from './Migration20261217090000.js';
import { Migration20261218090000 } from './Migration20261218090000.js';
import { Migration20261219090000 } from './Migration20261219090000.js';
import { Migration20261219100000 } from './Migration20261219100000.js';
import { Migration20261229090000 } from './Migration20261229090000.js';
import { Migration20261230150000 } from './Migration20261230150000.js';
import { Migration20261230163000 } from './Migration20261230163000.js';
import { Migration20261230184700 } from './Migration20261230184700.js';
import { Migration20261230191000 } from './Migration20261230191000.js';
import { Migration20261230213000 } from './Migration20261230213000.js';

/**
 * Every committed migration, oldest first. `npm run migration:create` writes a new file next to this
 * one and adds it here (listing them explicitly avoids file globbing at start-up).
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122022134', class: Migration20261122022134 },
  { name: 'Migration20261122031702', class: Migration20261122031702 },
  { name: 'Migration20261122043205', class: Migration20261122043205 },
  { name: 'Migration20261122043713', class: Migration20261122043713 },
  { name: 'Migration20261122043811', class: Migration20261122043811 },
  { name: 'Migration20261122050000', class: Migration20261122050000 },
  { name: 'Migration20261122051909', class: Migration20261122051909 },
  { name: 'Migration20261122054241', class: Migration20261122054241 },
  { name: 'Migration20261122055324', class: Migration20261122055324 },
  { name: 'Migration20261122055213', class: Migration20261122055213 },
  { name: 'Migration20261122090000', class: Migration20261122090000 },
  { name: 'Migration20261122100000', class: Migration20261122100000 },
  { name: 'Migration20261124090000', class: Migration20261124090000 },
  { name: 'Migration20261124120000', class: Migration20261124120000 },
  { name: 'Migration20261124140000', class: Migration20261124140000 },
  { name: 'Migration20261125140000', class: Migration20261125140000 },
  { name: 'Migration20261125150000', class: Migration20261125150000 },
  { name: 'Migration20261201090000', class: Migration20261201090000 },
  { name: 'Migration20261201091000', class: Migration20261201091000 },
  { name: 'Migration20261202090000', class: Migration20261202090000 },
  { name: 'Migration20261210090000', class: Migration20261210090000 },
  { name: 'Migration20261215100000', class: Migration20261215100000 },
  { name: 'Migration20261216090000', class: Migration20261216090000 },
  { name: 'Migration20261216100000', class: Migration20261216100000 },
  { name: 'Migration20261217090000', class: Migration20261217090000 },
  { name: 'Migration20261218090000', class: Migration20261218090000 },
  { name: 'Migration20261219090000', class: Migration20261219090000 },
  { name: 'Migration20261219100000', class: Migration20261219100000 },
  { name: 'Migration20261229090000', class: Migration20261229090000 },
  { name: 'Migration20261230150000', class: Migration20261230150000 },
  { name: 'Migration20261230163000', class: Migration20261230163000 },
  { name: 'Migration20261230184700', class: Migration20261230184700 },
  { name: 'Migration20261230191000', class: Migration20261230191000 },
  { name: 'Migration20261230213000', class: Migration20261230213000 },
];
