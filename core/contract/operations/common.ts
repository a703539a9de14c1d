// Pieces shared by the operation schemas. Renderer-safe: zod and constants only.
import { z } from 'zod';

export const NoInput = z.strictObject({}).optional();
export const Timestamp = z.string();
export const Id = z.int().min(1).max(Number.MAX_SAFE_INTEGER);
