// Every upstream kind the simulator speaks; one route module per kind, each in its own file.
import type { FastifyInstance } from 'fastify';
import type { SimulatorControl } from './simulator-control';
import { transcriptionRoutes } from './transcription.routes';
import { diarizationRoutes } from './diarization.routes';
import { speechRoutes } from './speech.routes';
import { decisionsRoutes } from './decisions.routes';
import { imagesRoutes } from './images.routes';
import { chatRoutes } from './chat.routes';
import { moderationRoutes } from './moderation.routes';

export type SimulatorRoutes = (app: FastifyInstance, control: SimulatorControl) => void | Promise<void>;

export const SIMULATOR_ROUTES: SimulatorRoutes[] = [speechRoutes, transcriptionRoutes, diarizationRoutes, decisionsRoutes, imagesRoutes, chatRoutes, moderationRoutes];
