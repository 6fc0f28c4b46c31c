# Writes OUTPUT: a C++ fragment defining NAME, the bytes of INPUT as an aligned unsigned char
# array (used to embed the device library's bitcode in the kernel JIT).
file(READ ${INPUT} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
set(text "// Generated from ${INPUT} by cmake/EmbedFile.cmake. Do not edit.\nalignas(16) static const unsigned char ${NAME}[] = {\n${bytes}};\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
