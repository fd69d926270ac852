// Set before every web test file: the jsdom tests render through React's act(), which warns
// ("not configured to support act") unless the environment says it is a test using it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
