export * from './sink.js';
