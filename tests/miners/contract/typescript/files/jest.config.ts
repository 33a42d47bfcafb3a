export default {
  testEnvironment: 'node',
  testTimeout: 10000,
};
