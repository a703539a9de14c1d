// Starts the core in the main process. The /v1 listener is a side job of the desktop app: when its port is
// taken (a second tool, an old `npm run serve`), the window still opens, with the listener off and the reason
// shown on the listener settings, instead of the app refusing to start.
import { createRatingService, type RatingService, type RatingServiceOptions } from '../../core/service';

export interface StartedService {
  service: RatingService;
  /** Why the listener is not running although the settings say on; null when it started (or is off). */
  listenerError: string | null;
}

export async function startRatingService(
  options: RatingServiceOptions,
  create: typeof createRatingService = createRatingService,
): Promise<StartedService> {
  const service = await create({ ...options, tolerateListenerFailure: true });
  return { service, listenerError: service.listenerError };
}
