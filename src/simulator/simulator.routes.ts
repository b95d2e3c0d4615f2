// Every upstream kind the simulator speaks; one route module per kind, each in its own file.
import type { SimulatorRoutes } from './simulator-route';
import { transcriptionRoutes } from './transcription.routes';
import { diarizationRoutes } from './diarization.routes';
import { speechRoutes } from './speech.routes';
import { decisionsRoutes } from './decisions.routes';
import { imagesRoutes } from './images.routes';
import { chatRoutes } from './chat.routes';
import { moderationRoutes } from './moderation.routes';

export const SIMULATOR_ROUTES: SimulatorRoutes[] = [speechRoutes, transcriptionRoutes, diarizationRoutes, decisionsRoutes, imagesRoutes, chatRoutes, moderationRoutes];
