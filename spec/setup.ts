// Loaded by mocha before every spec (see .mocharc.json): decorator metadata must exist before any
// model class is evaluated, and the specs' servers log nothing unless asked to.
import 'reflect-metadata';

process.env.LOG_LEVEL ??= 'silent';
