# FindMUSAToolkit: the MUSA toolkit's libraries as imported targets, as CMake's
# FindCUDAToolkit gives CUDA's (musa-sim installs this module at <prefix>/cmake):
#
#   list(APPEND CMAKE_MODULE_PATH <prefix>/cmake)
#   find_package(MUSAToolkit 5.0 REQUIRED)
#   add_executable(app main.cpp)              # host code calling the runtime API
#   target_link_libraries(app PRIVATE MUSA::musart)
#
# The toolkit root is the first of these that holds include/musa_runtime.h: MUSAToolkit_ROOT
# (variable or environment), the environment's MUSA_HOME, MUSA_PATH and MUSA_INSTALL_PATH,
# the prefix this module was installed in, /usr/local/musa.
#
# Result variables: MUSAToolkit_FOUND, MUSAToolkit_VERSION (and _MAJOR, _MINOR, _PATCH),
# MUSAToolkit_ROOT_DIR, MUSAToolkit_BIN_DIR, MUSAToolkit_INCLUDE_DIRS,
# MUSAToolkit_LIBRARY_DIR, MUSAToolkit_MCC_EXECUTABLE.
# Imported targets: MUSA::musart (the runtime API, with its headers), MUSA::musa_driver
# (libmusa, the driver API), MUSA::murand (the random-number library, murand.h/curand.h) and
# MUSA::mublas (the BLAS subset, mublas.h/cublas_v2.h) where the toolkit has them.

set(_musatk_candidates ${MUSAToolkit_ROOT} $ENV{MUSAToolkit_ROOT} $ENV{MUSA_HOME}
    $ENV{MUSA_PATH} $ENV{MUSA_INSTALL_PATH})
get_filename_component(_musatk_module_prefix "${CMAKE_CURRENT_LIST_DIR}" DIRECTORY)
list(APPEND _musatk_candidates ${_musatk_module_prefix} /usr/local/musa)
set(MUSAToolkit_ROOT_DIR "")
foreach(_musatk_dir IN LISTS _musatk_candidates)
  if(_musatk_dir AND EXISTS "${_musatk_dir}/include/musa_runtime.h")
    set(MUSAToolkit_ROOT_DIR "${_musatk_dir}")
    break()
  endif()
endforeach()

find_path(MUSAToolkit_INCLUDE_DIR musa_runtime.h PATHS "${MUSAToolkit_ROOT_DIR}/include"
          NO_DEFAULT_PATH)
find_library(MUSAToolkit_musart_LIBRARY musart PATHS "${MUSAToolkit_ROOT_DIR}/lib"
             NO_DEFAULT_PATH)
find_library(MUSAToolkit_musa_LIBRARY musa PATHS "${MUSAToolkit_ROOT_DIR}/lib" NO_DEFAULT_PATH)
find_library(MUSAToolkit_murand_LIBRARY murand PATHS "${MUSAToolkit_ROOT_DIR}/lib"
             NO_DEFAULT_PATH)
find_library(MUSAToolkit_mublas_LIBRARY mublas PATHS "${MUSAToolkit_ROOT_DIR}/lib"
             NO_DEFAULT_PATH)
find_program(MUSAToolkit_MCC_EXECUTABLE mcc PATHS "${MUSAToolkit_ROOT_DIR}/bin" NO_DEFAULT_PATH)
mark_as_advanced(MUSAToolkit_INCLUDE_DIR MUSAToolkit_musart_LIBRARY MUSAToolkit_musa_LIBRARY
                 MUSAToolkit_murand_LIBRARY MUSAToolkit_mublas_LIBRARY
                 MUSAToolkit_MCC_EXECUTABLE)

if(MUSAToolkit_INCLUDE_DIR AND EXISTS "${MUSAToolkit_INCLUDE_DIR}/musa_runtime_api.h")
  file(STRINGS "${MUSAToolkit_INCLUDE_DIR}/musa_runtime_api.h" _musatk_version_line
       REGEX "^#define MUSART_VERSION [0-9]+")
  string(REGEX REPLACE ".* ([0-9]+)$" "\\1" _musatk_number "${_musatk_version_line}")
  math(EXPR MUSAToolkit_VERSION_MAJOR "${_musatk_number} / 10000")
  math(EXPR MUSAToolkit_VERSION_MINOR "${_musatk_number} % 10000 / 100")
  math(EXPR MUSAToolkit_VERSION_PATCH "${_musatk_number} % 100")
  set(MUSAToolkit_VERSION
      "${MUSAToolkit_VERSION_MAJOR}.${MUSAToolkit_VERSION_MINOR}.${MUSAToolkit_VERSION_PATCH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(MUSAToolkit
  REQUIRED_VARS MUSAToolkit_INCLUDE_DIR MUSAToolkit_musart_LIBRARY
  VERSION_VAR MUSAToolkit_VERSION)
if(NOT MUSAToolkit_FOUND)
  return()
endif()

set(MUSAToolkit_INCLUDE_DIRS "${MUSAToolkit_INCLUDE_DIR}")
set(MUSAToolkit_BIN_DIR "${MUSAToolkit_ROOT_DIR}/bin")
get_filename_component(MUSAToolkit_LIBRARY_DIR "${MUSAToolkit_musart_LIBRARY}" DIRECTORY)

if(NOT TARGET MUSA::musart)
  add_library(MUSA::musart SHARED IMPORTED)
  set_target_properties(MUSA::musart PROPERTIES
    IMPORTED_LOCATION "${MUSAToolkit_musart_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${MUSAToolkit_INCLUDE_DIRS}")
endif()
if(MUSAToolkit_musa_LIBRARY AND NOT TARGET MUSA::musa_driver)
  add_library(MUSA::musa_driver SHARED IMPORTED)
  set_target_properties(MUSA::musa_driver PROPERTIES
    IMPORTED_LOCATION "${MUSAToolkit_musa_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${MUSAToolkit_INCLUDE_DIRS}")
endif()
foreach(_musatk_lib murand mublas)
  if(MUSAToolkit_${_musatk_lib}_LIBRARY AND NOT TARGET MUSA::${_musatk_lib})
    add_library(MUSA::${_musatk_lib} SHARED IMPORTED)
    set_target_properties(MUSA::${_musatk_lib} PROPERTIES
      IMPORTED_LOCATION "${MUSAToolkit_${_musatk_lib}_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${MUSAToolkit_INCLUDE_DIRS}"
      INTERFACE_LINK_LIBRARIES MUSA::musart)
  endif()
endforeach()
