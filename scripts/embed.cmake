# Turns a text file into a C source defining `const char SYMBOL[]`.
file(READ "${INPUT}" content HEX)
string(LENGTH "${content}" hexlen)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
file(WRITE "${OUTPUT}" "/* Generated from ${INPUT}. */\n#include <stddef.h>\nconst char ${SYMBOL}[] = {${bytes} 0x00};\nconst size_t ${SYMBOL}_len = sizeof(${SYMBOL}) - 1;\n")
